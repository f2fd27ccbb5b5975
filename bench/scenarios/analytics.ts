import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Kysely, Migrator, sql, PostgresDialect, SqliteDialect, type CompiledQuery, type Dialect } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase, type DatabaseHandle, type Db } from '../../src/db/database.ts';
import { migrateToLatest, migrations } from '../../src/db/migrate.ts';
import type { Database } from '../../src/db/schema.ts';
import { FixedClock } from '../../src/lib/clock.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { resolveRange, type Preset } from '../../src/modules/analytics/analytics.period.ts';
import type { ReportContext } from '../../src/modules/analytics/analytics.report.ts';
import { salesReport } from '../../src/modules/analytics/analytics.sales.service.ts';
import * as service from '../../src/modules/analytics/analytics.service.ts';
import { supportReport } from '../../src/modules/analytics/analytics.support.service.ts';
import { BENCH_NOW, SIZES, generate } from './analytics-data.ts';
import type { BenchOptions } from '../lib/types.ts';

const SQLITE_CACHE = '.bench/analytics-1m.sqlite';
const PG_SCHEMA = 'bench_analytics';
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 21);
const ENDPOINTS: Record<string, (ctx: ReportContext) => Promise<unknown>> = {
  sales: (ctx) => salesReport(ctx, { by: 'owner' }),
  support: supportReport,
  team: service.teamReport,
  customers: service.customersReport,
  activity: service.activityReport,
  trends: service.trendsReport,
};
const RANGES: Preset[] = ['this_month', 'this_year'];

export interface AnalyticsResult {
  engine: string;
  endpoint: string;
  range: string;
  endpointP50: number;
  directP50: number;
  ratio: number;
  queries: number;
}

const log = (s: string) => process.stderr.write(s + '\n');
const ANALYTICS_MIGRATIONS = [
  '2026-11-21T0160_analytics',
  '2026-11-21T0170_funnel',
  '2026-11-25T0300_analytics_levels',
  '2026-11-25T0310_analytics_kept',
  '2026-11-25T0320_analytics_covering_key',
  // These act on the triggers above, or add one (a deal's last_activity_at, which the data sets itself).
  '2026-11-27T1900_rollups_at_commit',
  '2026-11-27T1910_last_activity_trigger',
  '2026-11-28T0300_daily_rollup_moves',
  '2026-11-28T0310_counter_statements_postgres',
  '2026-11-28T0400_open_deal_activity',
  '2026-11-28T1900_open_pipeline',
];

/**
 * Loads the data the way a deployment meets the analytics migration: every other migration,
 * the records, then the analytics migrations, which build their indexes and backfill the
 * rollup in bulk (faster than firing its triggers for every generated row).
 */
async function load(h: DatabaseHandle, schema?: string): Promise<void> {
  const others = Object.fromEntries(Object.entries(migrations).filter(([name]) => !ANALYTICS_MIGRATIONS.includes(name)));
  const migrator = new Migrator({
    db: h.db,
    provider: { getMigrations: async () => others },
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const r = await migrator.migrateToLatest();
  if (r.error) throw r.error;
  await generate(h, log);
  const t = performance.now();
  await migrateToLatest(h.db, schema);
  log(`  analytics migration (indexes, rollup backfill): ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

function p50(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
}

async function time(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/** Whether the cached data set is complete: every deal, and the rollup of the current analytics migration. */
async function complete(h: DatabaseHandle): Promise<boolean> {
  try {
    const d = await h.db
      .selectFrom('deals')
      .select((e) => e.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const f = await h.db.selectFrom('analytics_daily').select('n').where('fact', '=', 'funnel_stage').limit(1).executeTakeFirst();
    return Number(d.n) === SIZES.deals && f !== undefined;
  } catch {
    return false;
  }
}

async function benchAccount(h: DatabaseHandle): Promise<number> {
  const r = await h.db.selectFrom('accounts').select('id').where('name', '=', 'Bench').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** The SQLite file is generated once and cached under .bench/ (git-ignored); a half-made file is never kept. */
async function openSqlite(): Promise<DatabaseHandle> {
  mkdirSync('.bench', { recursive: true });
  if (!existsSync(SQLITE_CACHE)) {
    const tmp = `${SQLITE_CACHE}.tmp`;
    rmSync(tmp, { force: true });
    const h = openDatabase(`sqlite:${tmp}`);
    log(`sqlite: generating ${SQLITE_CACHE}`);
    await load(h);
    await h.sqlite!.raw.exec('analyze');
    h.sqlite!.raw.exec('pragma wal_checkpoint(truncate)');
    await h.close();
    renameSync(tmp, SQLITE_CACHE);
    rmSync(`${tmp}-wal`, { force: true });
    rmSync(`${tmp}-shm`, { force: true });
  }
  const h = openDatabase(`sqlite:${SQLITE_CACHE}`);
  await migrateToLatest(h.db);
  if (!(await complete(h))) {
    await h.close();
    rmSync(SQLITE_CACHE, { force: true });
    return openSqlite();
  }
  return h;
}

/** PostgreSQL data lives in its own schema and is kept between runs when complete. */
async function openPostgres(url: string): Promise<DatabaseHandle> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema if not exists ${PG_SCHEMA}`);
  await admin.end();
  let h = openDatabase(url, { schema: PG_SCHEMA, poolSize: 10 });
  await migrateToLatest(h.db, PG_SCHEMA).catch(() => undefined);
  if (!(await complete(h))) {
    await h.close();
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop schema ${PG_SCHEMA} cascade; create schema ${PG_SCHEMA}`);
    await c.end();
    h = openDatabase(url, { schema: PG_SCHEMA, poolSize: 10 });
    log('postgres: generating');
    await load(h, PG_SCHEMA);
    await sql.raw('vacuum analyze analytics_daily, deals').execute(h.db);
  }
  return h;
}

/** A second Kysely over the same connection(s) that records every compiled query the service issues. */
function capturing(h: DatabaseHandle, sink: CompiledQuery[]): Db {
  const dialect: Dialect = h.dialect === 'sqlite' ? new SqliteDialect({ database: h.sqlite! }) : new PostgresDialect({ pool: h.pool! });
  return new Kysely<Database>({
    dialect,
    log: (e) => {
      sink.push(e.query);
    },
  });
}

/** Runs the captured SQL straight through the driver: node:sqlite statements, or pg pool queries started together as the service starts them. */
function directRunner(h: DatabaseHandle, queries: CompiledQuery[]): () => Promise<unknown> {
  if (h.dialect === 'sqlite') {
    const statements = queries.map((q) => ({ stmt: h.sqlite!.raw.prepare(q.sql), params: q.parameters as never[] }));
    return async () => statements.map(({ stmt, params }) => stmt.all(...params));
  }
  return () => Promise.all(queries.map((q) => h.pool!.query(q.sql, q.parameters as unknown[])));
}

async function measure(h: DatabaseHandle, explain: boolean): Promise<AnalyticsResult[]> {
  const accountId = await benchAccount(h);
  const clock = new FixedClock(BENCH_NOW);
  const config = loadConfig({
    DATABASE_URL: h.dialect === 'sqlite' ? `sqlite:${SQLITE_CACHE}` : 'postgres://bench',
    CUSTOPS_RATE_LIMIT_PER_MINUTE: '1000000',
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
  });
  const app = await buildApp(config, { database: h, clock, logger: false });
  await app.ready();
  const key = (await createApiKey({ db: h.db, clock }, { accountId, name: 'bench', scopes: ['analytics:read'], rateLimitPerMinute: null })).secret;
  const out: AnalyticsResult[] = [];
  for (const [endpoint, run] of Object.entries(ENDPOINTS)) {
    for (const range of RANGES) {
      const inject = async () => {
        const res = await app.inject({ method: 'GET', url: `/api/v1/analytics/${endpoint}?range=${range}`, headers: { authorization: `Bearer ${key}` } });
        if (res.statusCode !== 200) throw new Error(`${endpoint} ${range}: ${res.statusCode} ${res.body}`);
      };
      const queries: CompiledQuery[] = [];
      await run({ db: capturing(h, queries), accountId, now: BENCH_NOW, range: resolveRange({ range }, BENCH_NOW), compare: false });
      if (explain) await explainAll(h, endpoint, range, queries);
      const direct = directRunner(h, queries);
      const endpointSamples: number[] = [];
      const directSamples: number[] = [];
      for (let i = 0; i < 2; i++) {
        await inject();
        await direct();
      }
      // Interleaved in alternating order (ABBA), so cache state, noise and "first after a pause" hit both sides alike.
      for (let i = 0; i < ITERATIONS; i++) {
        if (i % 2 === 0) {
          endpointSamples.push(await time(inject));
          directSamples.push(await time(direct));
        } else {
          directSamples.push(await time(direct));
          endpointSamples.push(await time(inject));
        }
      }
      const r = { engine: h.dialect, endpoint, range, endpointP50: p50(endpointSamples), directP50: p50(directSamples), ratio: 0, queries: queries.length };
      r.ratio = r.endpointP50 / r.directP50;
      log(
        `${r.engine.padEnd(8)} ${endpoint.padEnd(9)} ${range.padEnd(10)} endpoint ${r.endpointP50.toFixed(1).padStart(7)} ms   direct SQL ${r.directP50.toFixed(1).padStart(7)} ms   ×${r.ratio.toFixed(2)}   (${r.queries} queries)`,
      );
      out.push(r);
    }
  }
  await app.close();
  return out;
}

async function explainAll(h: DatabaseHandle, endpoint: string, range: string, queries: CompiledQuery[]): Promise<void> {
  for (const q of queries) {
    if (!/^\s*(select|with)/i.test(q.sql) || /from "?(users|orgs)"? /.test(q.sql.replace(/\s+/g, ' ').slice(0, 120))) continue;
    const text =
      h.dialect === 'sqlite'
        ? h
            .sqlite!.raw.prepare(`explain query plan ${q.sql}`)
            .all(...(q.parameters as never[]))
            .map((r) => (r as { detail: string }).detail)
            .join('\n')
        : (await h.pool!.query(`explain (analyze, buffers off, costs off, timing off) ${q.sql}`, q.parameters as unknown[])).rows
            .map((r) => r['QUERY PLAN'])
            .join('\n');
    log(`--- ${h.dialect} ${endpoint} ${range}\n${q.sql.replace(/\s+/g, ' ').slice(0, 200)}\n${text}`);
  }
}

/**
 * Analytics at scale: one account with 1,000,000 deals, 3,000,000 activities and 300,000
 * tickets; each endpoint for this_month and this_year, p50 through the whole HTTP stack
 * (Fastify inject: auth, validation, serialization) against the same SQL run directly through
 * the driver in the same run. Goals: ratio ≤ 1.15; this_year under 100 ms on PostgreSQL.
 */
export async function runAnalyticsBench(options: { postgresUrl?: string; engines?: string[]; explain?: boolean } = {}): Promise<AnalyticsResult[]> {
  const engines = options.engines ?? ['sqlite', 'postgres'];
  const results: AnalyticsResult[] = [];
  if (engines.includes('sqlite')) {
    const h = await openSqlite();
    results.push(...(await measure(h, options.explain ?? false)));
    await h.close();
  }
  const url = options.postgresUrl ?? process.env.BENCH_POSTGRES_URL ?? process.env.TEST_POSTGRES_URL;
  if (engines.includes('postgres') && url) {
    const h = await openPostgres(url);
    results.push(...(await measure(h, options.explain ?? false)));
    await h.close();
  } else if (engines.includes('postgres')) {
    log('postgres: skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL)');
  }
  for (const r of results) {
    if (r.ratio > 1.15) log(`GOAL MISSED: ${r.engine} ${r.endpoint} ${r.range} is ×${r.ratio.toFixed(2)} the direct SQL (goal ≤ 1.15)`);
    if (r.engine === 'postgres' && r.range === 'this_year' && r.endpointP50 >= 100)
      log(`GOAL MISSED: postgres ${r.endpoint} this_year p50 ${r.endpointP50.toFixed(1)} ms (goal < 100 ms)`);
  }
  return results;
}

export const name = 'analytics';
export const description =
  'GET /api/v1/analytics/* (this_month, this_year) over 1,000,000 deals, 3,000,000 activities, 300,000 tickets in one account, ' +
  'SQLite and PostgreSQL (BENCH_POSTGRES_URL or TEST_POSTGRES_URL), p50 through the whole stack against the same SQL run directly.';

/** The bench/run.ts contract: one JSON line of figures on stdout (the load options do not apply: this scenario times single requests). */
export async function run(_options: BenchOptions): Promise<void> {
  const results = await runAnalyticsBench();
  const figures = {
    scenario: name,
    results: results.map((r) => ({ ...r, endpointP50: round(r.endpointP50), directP50: round(r.directP50), ratio: round(r.ratio) })),
    worst_ratio: round(Math.max(...results.map((r) => r.ratio))),
    postgres_this_year_max_p50_ms: round(Math.max(0, ...results.filter((r) => r.engine === 'postgres' && r.range === 'this_year').map((r) => r.endpointP50))),
  };
  process.stdout.write(JSON.stringify(figures) + '\n');
}

const round = (n: number) => Math.round(n * 100) / 100;

if (import.meta.main) {
  const args = process.argv.slice(2);
  const engines = args.filter((a) => a === 'sqlite' || a === 'postgres');
  const results = await runAnalyticsBench({ engines: engines.length ? engines : undefined, explain: args.includes('--explain') });
  console.log(JSON.stringify(results, null, 2));
}
