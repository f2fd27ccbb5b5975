import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { MAX_SEED_DEALS } from '../seed/plan.ts';
import { seedAccount, SeedInputError } from '../seed/seed.ts';
import { defineCommand, print, UsageError } from './command.ts';

/**
 * An integer with commas between thousands, as `toLocaleString('en')` writes it, without Intl: the
 * first Intl call maps about 7 MB of ICU data into the process, and this module is loaded by every
 * command, `serve` included (the help text below is built when it loads).
 */
function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function wholeNumber(value: string, flag: string, max: number): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw new UsageError(`${flag} must be a whole number from 1 to ${grouped(max)}`);
  return Number(value);
}

/**
 * `custops seed`: fills an existing account with `--deals` deals and everything around them
 * (src/seed/plan.ts). Prints one JSON line of counts on stdout, progress on stderr. Bad input is
 * one line on stderr and exit 2, checked before anything is written.
 */
export const seedCommand = defineCommand({
  name: 'seed',
  summary: 'Fills an existing account with N deals and everything around them, in bulk; prints the counts.',
  options: {
    account: { type: 'string', value: 'ID', help: 'the account to fill', required: true },
    deals: { type: 'string', value: 'N', help: `how many deals (up to ${grouped(MAX_SEED_DEALS)})`, required: true },
    seed: { type: 'string', value: 'S', help: 'the same seed gives the same data (default 1)' },
  },
  async run(values, ctx) {
    const options = {
      accountId: wholeNumber(values.account, '--account', Number.MAX_SAFE_INTEGER),
      deals: wholeNumber(values.deals, '--deals', MAX_SEED_DEALS),
      seed: values.seed === undefined ? 1 : wholeNumber(values.seed, '--seed', 2 ** 31),
    };
    const config = loadConfig(ctx.env);
    const database = openDatabase(config.databaseUrl, { poolSize: 3 });
    const started = performance.now();
    try {
      await migrateToLatest(database.db);
      const counts = await seedAccount(database, ctx.clock, { ...options, progress: (line) => ctx.log(line) });
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      print(ctx, { account_id: options.accountId, seed: options.seed, ...counts, seconds });
    } catch (err) {
      if (err instanceof SeedInputError) throw new UsageError(err.message);
      throw err;
    } finally {
      await database.close();
    }
  },
});
