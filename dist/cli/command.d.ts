import type { Config } from '../config.ts';
import { type DatabaseHandle } from '../db/database.ts';
import type { Clock } from '../lib/clock.ts';
/** One command-line option: a value (`--name NAME`) or a switch (`--no-migrate`). */
export type OptionSpec = {
    type: 'string';
    value: string;
    help: string;
    required?: boolean;
} | {
    type: 'boolean';
    help: string;
};
export type OptionSpecs = Record<string, OptionSpec>;
/** Parsed option values, typed from the specs: a required value is a string, an optional one may be absent. */
export type OptionValues<O extends OptionSpecs> = {
    [K in keyof O]: O[K] extends {
        type: 'boolean';
    } ? boolean : O[K] extends {
        required: true;
    } ? string : string | undefined;
};
/** What a command may touch besides its options: injected so tests run commands in process. */
export interface CliContext {
    env: NodeJS.ProcessEnv;
    clock: Clock;
    /** Writes one line to stdout: the command's result. */
    out(line: string): void;
    /** Writes one line to stderr: progress a person watches. */
    log(line: string): void;
    /** Resolves after SIGINT or SIGTERM (in tests: when the test says so), once `stop` has finished. */
    waitForStop(stop: () => Promise<void>): Promise<void>;
}
export interface Command<O extends OptionSpecs = OptionSpecs> {
    /** Words after `custops`, such as "key create". */
    name: string;
    summary: string;
    options: O;
    /** Returns the exit code (0 when omitted). */
    run(values: OptionValues<O>, ctx: CliContext): Promise<number | undefined>;
}
/** Keeps each command's option types while letting the registry hold them side by side. */
export declare function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command;
/** A mistake in the command line: exit code 2 and a pointer to the usage. */
export declare class UsageError extends Error {
}
export declare function positiveInt(value: string | undefined, flag: string): number;
export declare function print(ctx: CliContext, value: unknown): void;
/** Opens the configured database, brings it to the latest migration, runs `fn`, and closes it. */
export declare function withDatabase<T>(config: Config, fn: (db: DatabaseHandle) => Promise<T>): Promise<T>;
/** The usage line of a command, built from its options. */
export declare function usageLine(command: Command): string;
/** `custops <command> --help`: the usage line and one line per option. */
export declare function commandHelp(command: Command): string;
