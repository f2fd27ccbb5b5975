import type { Command } from './command.ts';
/**
 * Every `custops` command, in the order `custops help` lists them. A new command is one file
 * beside this one (see command.ts: `defineCommand`) and one entry here.
 */
export declare const commands: readonly Command[];
