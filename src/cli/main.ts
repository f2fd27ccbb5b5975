import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, withSecretKey, type Config } from '../config.ts';
import { openDatabase, type DatabaseHandle } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { systemClock } from '../lib/clock.ts';
import { createAccount } from '../modules/accounts/accounts.service.ts';
import { createApiKey, KeyInputError, parseScopeList, revokeApiKey } from '../modules/api-keys/api-keys.service.ts';
import { startServer } from '../server.ts';
import { seedDemo } from '../demo/seed.ts';
import { SEED_USAGE, seedCommand } from '../seed/command.ts';

const USAGE = `usage:
  custops migrate
  custops serve [--port N] [--host H]
  custops worker
  custops account create --name NAME [--owner-email E] [--owner-password P]
  custops key create --account ID --name NAME [--scopes "deals:read,deals:write"] [--rate-limit N]
  custops key revoke --id ID
  custops demo [--seed N]
  ${SEED_USAGE}`;

class UsageError extends Error {}

function positiveInt(value: string | undefined, flag: string): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive whole number`);
  return Number(value);
}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`${flag} is required`);
  return value;
}

async function withDatabase<T>(config: Config, fn: (db: DatabaseHandle) => Promise<T>): Promise<T> {
  const database = openDatabase(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(database.db);
    return await fn(database);
  } finally {
    await database.close();
  }
}

function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

/** Runs one CLI command; returns the exit code. Errors are one line on stderr. */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  try {
    const [command, sub, ...rest] = argv;
    const clock = systemClock;
    switch (command) {
      case 'migrate': {
        const config = loadConfig(env);
        const database = openDatabase(config.databaseUrl, { poolSize: 1 });
        try {
          const result = await migrateToLatest(database.db);
          print({ migrated: (result.results ?? []).map((r) => r.migrationName) });
        } finally {
          await database.close();
        }
        return 0;
      }
      case 'serve': {
        const { values } = parseArgs({ args: argv.slice(1), options: { port: { type: 'string' }, host: { type: 'string' } }, strict: true });
        const config = withSecretKey(
          loadConfig(env, { port: values.port === undefined ? undefined : positiveIntOrZero(values.port), host: values.host }),
        );
        const server = await startServer(config);
        await waitForSignal(async () => server.stop());
        return 0;
      }
      case 'worker': {
        const config = withSecretKey(loadConfig(env));
        const { runWorker } = await import('../worker.ts');
        await runWorker(config, waitForSignal);
        return 0;
      }
      case 'account': {
        if (sub !== 'create') throw new UsageError(`unknown command "account ${sub ?? ''}"`);
        const { values } = parseArgs({
          args: rest,
          options: { name: { type: 'string' }, 'owner-email': { type: 'string' }, 'owner-password': { type: 'string' } },
          strict: true,
        });
        const name = required(values.name, '--name');
        const email = values['owner-email'];
        if (email !== undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw new UsageError('--owner-email is not an e-mail address');
        if (values['owner-password'] !== undefined && email === undefined) throw new UsageError('--owner-password needs --owner-email');
        const config = loadConfig(env);
        print(await withDatabase(config, ({ db }) => createAccount({ db, clock }, { name, ownerEmail: email, ownerPassword: values['owner-password'] })));
        return 0;
      }
      case 'key': {
        const config = loadConfig(env);
        if (sub === 'create') {
          const { values } = parseArgs({
            args: rest,
            options: { account: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, 'rate-limit': { type: 'string' } },
            strict: true,
          });
          const accountId = positiveInt(values.account, '--account');
          const name = required(values.name, '--name');
          const scopes = parseScopeList(values.scopes);
          const rateLimit = values['rate-limit'] === undefined ? null : positiveInt(values['rate-limit'], '--rate-limit');
          print(await withDatabase(config, ({ db }) => createApiKey({ db, clock }, { accountId, name, scopes, rateLimitPerMinute: rateLimit })));
          return 0;
        }
        if (sub === 'revoke') {
          const { values } = parseArgs({ args: rest, options: { id: { type: 'string' } }, strict: true });
          const id = positiveInt(values.id, '--id');
          print(await withDatabase(config, ({ db }) => revokeApiKey({ db, clock }, id)));
          return 0;
        }
        throw new UsageError(`unknown command "key ${sub ?? ''}"`);
      }
      case 'demo': {
        const { values } = parseArgs({ args: argv.slice(1), options: { seed: { type: 'string' } }, strict: true });
        const seed = values.seed === undefined ? 1 : positiveInt(values.seed, '--seed');
        const config = withSecretKey(loadConfig(env));
        print(await withDatabase(config, (database) => seedDemo({ db: database.db, clock, config }, { seed })));
        return 0;
      }
      case 'seed':
        return await seedCommand(argv.slice(1), env);
      case undefined:
      case 'help':
      case '--help':
        process.stdout.write(USAGE + '\n');
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      // One line, as for every other error: scripts read stderr line by line.
      process.stderr.write(`custops: ${err.message} (run "custops help" for usage)\n`);
      return 2;
    }
    if (err instanceof ConfigError || err instanceof KeyInputError) {
      process.stderr.write(`custops: ${err.message}\n`);
      return 1;
    }
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      // node:util parseArgs explains some mistakes over several lines; the first names the problem.
      process.stderr.write(`custops: ${err.message.split('\n')[0]}\n`);
      return 2;
    }
    process.stderr.write(`custops: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
    return 1;
  }
}

function positiveIntOrZero(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError('--port must be a port number (0 to 65535)');
  return Number(value);
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
