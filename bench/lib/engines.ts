import { postgresBaseUrl, type Engine } from './deal-data.ts';
import { log } from './processes.ts';
import type { BenchOptions } from './types.ts';

/** A scenario's `run`: one pass per engine, SQLite always, PostgreSQL when BENCH_POSTGRES_URL or TEST_POSTGRES_URL is set. */
export function onEachEngine(name: string, runEngine: (engine: Engine, options: BenchOptions) => Promise<void>): (options: BenchOptions) => Promise<void> {
  return async (options) => {
    await runEngine('sqlite', options);
    if (postgresBaseUrl()) await runEngine('postgres', options);
    else log(`${name}: postgres skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL)`);
  };
}
