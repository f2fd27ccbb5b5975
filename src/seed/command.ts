import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { systemClock } from '../lib/clock.ts';
import { MAX_SEED_DEALS } from './plan.ts';
import { seedAccount, SeedInputError } from './seed.ts';

export const SEED_USAGE = 'custops seed --account ID --deals N [--seed S]';

function wholeNumber(value: string | undefined, flag: string, max: number): number {
  if (value === undefined) throw new SeedInputError(`${flag} is required`);
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new SeedInputError(`${flag} must be a whole number from 1 to ${max.toLocaleString('en')}`);
  return Number(value);
}

/**
 * `custops seed`: fills an existing account with `--deals` deals and everything around them
 * (src/seed/plan.ts). Prints one JSON line of counts on stdout, progress on stderr. Bad input is
 * one line on stderr and exit 2, checked before anything is written.
 */
export async function seedCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  let options: { accountId: number; deals: number; seed: number };
  try {
    const { values } = parseArgs({ args, options: { account: { type: 'string' }, deals: { type: 'string' }, seed: { type: 'string' } }, strict: true });
    options = {
      accountId: wholeNumber(values.account, '--account', Number.MAX_SAFE_INTEGER),
      deals: wholeNumber(values.deals, '--deals', MAX_SEED_DEALS),
      seed: values.seed === undefined ? 1 : wholeNumber(values.seed, '--seed', 2 ** 31),
    };
  } catch (err) {
    process.stderr.write(`custops: ${(err as Error).message.split('\n')[0]} (usage: ${SEED_USAGE})\n`);
    return 2;
  }
  const config = loadConfig(env);
  const database = openDatabase(config.databaseUrl, { poolSize: 2 });
  const started = performance.now();
  try {
    await migrateToLatest(database.db);
    const counts = await seedAccount(database, systemClock, { ...options, progress: (line) => process.stderr.write(line + '\n') });
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    process.stdout.write(JSON.stringify({ account_id: options.accountId, seed: options.seed, ...counts, seconds }) + '\n');
    return 0;
  } catch (err) {
    if (err instanceof SeedInputError) {
      process.stderr.write(`custops: ${err.message}\n`);
      return 2;
    }
    throw err;
  } finally {
    await database.close();
  }
}
