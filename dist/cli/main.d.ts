import { type CliContext } from './command.ts';
/** The whole usage: every command's line, then the settings read from the environment. */
export declare function usage(): string;
export interface CliIo {
    out(line: string): void;
    err(line: string): void;
    waitForStop?: CliContext['waitForStop'];
}
/** Runs one CLI command; returns the exit code. Errors are one line on stderr. */
export declare function main(argv: string[], env?: NodeJS.ProcessEnv, io?: CliIo): Promise<number>;
