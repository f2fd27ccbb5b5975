import { parseArgs } from 'node:util';
import { ConfigError, describeSettings } from '../config.ts';
import { systemClock } from '../lib/clock.ts';
import { commandHelp, UsageError, usageLine, type CliContext, type Command, type OptionSpecs, type OptionValues } from './command.ts';
import { commands } from './commands.ts';

/** The whole usage: every command's line, then the settings read from the environment. */
export function usage(): string {
  return [
    'usage:',
    ...commands.map((c) => `  ${usageLine(c)}`),
    '',
    'Run "custops <command> --help" for its options.',
    '',
    'settings (environment):',
    ...describeSettings(),
  ].join('\n');
}

/** The command whose words start `argv`, and the arguments after them. */
function findCommand(argv: string[]): { command: Command; args: string[] } | null {
  for (const command of commands) {
    const words = command.name.split(' ');
    if (words.every((word, i) => argv[i] === word)) return { command, args: argv.slice(words.length) };
  }
  return null;
}

function parseOptions(command: Command, args: string[]): OptionValues<OptionSpecs> | 'help' {
  const options = Object.fromEntries(Object.entries(command.options).map(([flag, spec]) => [flag, { type: spec.type }]));
  const parsed = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return 'help';
  for (const [flag, spec] of Object.entries(command.options)) {
    const value = values[flag];
    if (spec.type === 'string' && spec.required && (typeof value !== 'string' || value.trim() === '')) throw new UsageError(`--${flag} is required`);
  }
  // The types follow from the specs: parseArgs gave each option the type its spec names.
  return values as OptionValues<OptionSpecs>;
}

/** Resolves after SIGINT or SIGTERM, once `stop` has finished. */
function waitForSignal(stop: () => Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      stop().then(resolve, (err) => {
        process.stderr.write(`custops: shutdown failed: ${String(err)}\n`);
        resolve();
      });
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  waitForStop?: CliContext['waitForStop'];
}

const processIo: CliIo = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
};

/** Runs one CLI command; returns the exit code. Errors are one line on stderr. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: CliIo = processIo): Promise<number> {
  const ctx: CliContext = { env, clock: systemClock, out: io.out, log: io.err, waitForStop: io.waitForStop ?? waitForSignal };
  try {
    const [first] = argv;
    if (first === undefined || first === 'help' || first === '--help' || first === '-h') {
      io.out(usage());
      return first === undefined ? 2 : 0;
    }
    const found = findCommand(argv);
    if (!found) {
      const group = commands.filter((c) => c.name.startsWith(`${first} `));
      if (group.length > 0 && (argv[1] === '--help' || argv[1] === '-h')) {
        io.out(group.map((c) => usageLine(c)).join('\n'));
        return 0;
      }
      throw new UsageError(`unknown command "${group.length > 0 && argv[1] !== undefined ? `${first} ${argv[1]}` : first}"`);
    }
    const values = parseOptions(found.command, found.args);
    if (values === 'help') {
      io.out(commandHelp(found.command));
      return 0;
    }
    return (await found.command.run(values, ctx)) ?? 0;
  } catch (err) {
    if (err instanceof UsageError) {
      // One line, as for every other error: scripts read stderr line by line.
      io.err(`custops: ${err.message} (run "custops help" for usage)`);
      return 2;
    }
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      // node:util parseArgs explains some mistakes over several lines; the first names the problem.
      io.err(`custops: ${err.message.split('\n')[0]} (run "custops help" for usage)`);
      return 2;
    }
    if (err instanceof ConfigError) {
      io.err(`custops: ${err.message}`);
      return 1;
    }
    io.err(`custops: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
    return 1;
  }
}
