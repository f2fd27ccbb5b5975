import { loadConfig, type Config } from '../config.ts';
import { openDatabase, timeoutsOf, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Clock } from '../lib/clock.ts';

/** One command-line option: a value (`--name NAME`) or a switch (`--no-migrate`). */
export type OptionSpec = { type: 'string'; value: string; help: string; required?: boolean } | { type: 'boolean'; help: string };

export type OptionSpecs = Record<string, OptionSpec>;

/** Parsed option values, typed from the specs: a required value is a string, an optional one may be absent. */
export type OptionValues<O extends OptionSpecs> = {
  [K in keyof O]: O[K] extends { type: 'boolean' } ? boolean : O[K] extends { required: true } ? string : string | undefined;
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
export function defineCommand<const O extends OptionSpecs>(command: Command<O>): Command {
  return command as unknown as Command;
}

/** A mistake in the command line: exit code 2 and a pointer to the usage. */
export class UsageError extends Error {}

export function positiveInt(value: string | undefined, flag: string): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive whole number`);
  return Number(value);
}

export function print(ctx: CliContext, value: unknown): void {
  ctx.out(JSON.stringify(value));
}

/** Opens the configured database, brings it to the latest migration, runs `fn`, and closes it. */
export async function withDatabase<T>(config: Config, fn: (db: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = openDatabase(config.databaseUrl, { ...timeoutsOf(config), poolSize: 2 });
  try {
    await migrateToLatest(database.db);
    return await fn(database);
  } finally {
    await database.close();
  }
}

/** The usage line of a command, built from its options. */
export function usageLine(command: Command): string {
  const parts = Object.entries(command.options).map(([flag, spec]) => {
    const text = spec.type === 'string' ? `--${flag} ${spec.value}` : `--${flag}`;
    return spec.type === 'string' && spec.required ? text : `[${text}]`;
  });
  return ['custops', command.name, ...parts].join(' ');
}

/** `custops <command> --help`: the usage line and one line per option. */
export function commandHelp(command: Command): string {
  const lines = [usageLine(command), '', command.summary];
  const options = Object.entries(command.options);
  if (options.length > 0) {
    lines.push('', 'options:');
    for (const [flag, spec] of options) {
      const left = spec.type === 'string' ? `--${flag} ${spec.value}` : `--${flag}`;
      lines.push(`  ${left.padEnd(24)} ${spec.help}`);
    }
  }
  lines.push(`  ${'--help'.padEnd(24)} this text`);
  return lines.join('\n');
}

/**
 * A command that takes one record id (`--<flag> ID`, required), makes one call on the configured
 * database and prints its result as JSON.
 */
export function idCommand(spec: {
  name: string;
  summary: string;
  flag: string;
  help: string;
  call: (database: DatabaseHandle, id: number, ctx: CliContext) => Promise<unknown>;
}): Command {
  return defineCommand({
    name: spec.name,
    summary: spec.summary,
    options: { [spec.flag]: { type: 'string', value: 'ID', help: spec.help, required: true } },
    async run(values, ctx) {
      const id = positiveInt(values[spec.flag], `--${spec.flag}`);
      print(ctx, await withDatabase(loadConfig(ctx.env), (database) => spec.call(database, id, ctx)));
    },
  });
}
