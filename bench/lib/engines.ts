import { postgresBaseUrl, type Engine } from './deal-data.ts';
import { log } from './processes.ts';
import type { BenchOptions } from './types.ts';

/** The engines a scenario runs on: SQLite, and PostgreSQL when BENCH_POSTGRES_URL or TEST_POSTGRES_URL is set; `--engine` keeps one. */
export function benchEngines(options: Pick<BenchOptions, 'engine'>): Engine[] {
  const available: Engine[] = postgresBaseUrl() ? ['sqlite', 'postgres'] : ['sqlite'];
  return options.engine ? available.filter((e) => e === options.engine) : available;
}

/** A scenario's `run`: one pass per engine of `benchEngines`. */
export function onEachEngine(name: string, runEngine: (engine: Engine, options: BenchOptions) => Promise<void>): (options: BenchOptions) => Promise<void> {
  return async (options) => {
    for (const engine of benchEngines(options)) await runEngine(engine, options);
    if (options.engine !== 'sqlite' && !postgresBaseUrl()) log(`${name}: postgres skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL)`);
  };
}
