import { randomBytes } from 'node:crypto';
import { createScratchDatabase, postgresBaseUrl, seedDeals, type Engine, type ScratchDatabase, type SeededDeals } from '../lib/deal-data.ts';
import { log, runLoad, startPinnedServer, type LoadDetails, type PinnedServer } from '../lib/processes.ts';
import type { BenchOptions, LoadFigures } from '../lib/types.ts';
import { countWrites, failUnless, type WriteCounts } from './deal-activities-audit.ts';

export const name = 'deal-activities';
export const description =
  'POST /api/v1/deals/{id}/activities with a unique Idempotency-Key per request (auth, validation, idempotency record, one transaction: ' +
  'activity, deal last_activity_at, outbox event) against a bare Fastify doing one plain INSERT of the same row with the same driver; and ' +
  'the replay of one key against GET /api/v1/deals/{id} on the same server. 20k deals, 100k activities; SQLite, and PostgreSQL when configured.';

const DEALS = 20_000;
const SEEDED_ACTIVITIES = 100_000;
const GOALS = { ratio: 0.7, replay_ratio: 0.9 };
const BODY = JSON.stringify({
  source_app: 'bench', message: 'Called the customer about the renewal', activity_kind: 'call', outcome: 'success',
  external_reference: 'CALL-1', metadata_json: { duration_s: 310, tags: ['renewal'] },
});

type Load = LoadFigures & LoadDetails;

function summary(f: LoadFigures) {
  return { req_per_s: f.req_per_s, p50_ms: f.p50_ms, p99_ms: f.p99_ms, requests: f.requests, non_2xx: f.non_2xx, errors: f.errors };
}

const ratio = (a: LoadFigures, b: LoadFigures) => Math.round((a.req_per_s / b.req_per_s) * 1000) / 1000;
const answered = (f: Load, status: string) => (f.statuses[status] ?? 0) + (f.warmup_statuses[status] ?? 0);
const allAnswered = (f: Load) => [f.statuses, f.warmup_statuses].flatMap((s) => Object.values(s)).reduce((a, b) => a + b, 0);

async function withServer<T>(server: PinnedServer, body: (url: string) => Promise<T>): Promise<T> {
  try {
    return await body(server.url);
  } finally {
    await server.stop();
  }
}

/**
 * autocannon drops its connections with requests still in flight; the server finishes them, but
 * a SIGTERM at that moment races them (the handler's client is gone, so closing does not wait for it).
 * The audit is about the write path, not shutdown: let them finish first.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

async function post(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers, body: BODY });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.text() };
}

interface EngineRun {
  db: ScratchDatabase;
  seed: SeededDeals;
  options: BenchOptions;
  auth: Record<string, string>;
  path: string;
}

function apiServer(r: EngineRun): Promise<PinnedServer> {
  return startPinnedServer('bench/lib/server-child.ts', {
    DATABASE_URL: r.db.url, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '',
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'), CUSTOPS_DATA_DIR: r.db.dir,
  });
}

function load(r: EngineRun) {
  return { connections: r.options.connections, durationSeconds: r.options.durationSeconds, warmupSeconds: r.options.warmupSeconds };
}

/** Phase 1: every request a new key; then the outbox, the activities, the keys and the 201s must all agree. */
async function measureWrites(r: EngineRun) {
  let from = 0;
  const writes = await withServer(await apiServer(r), async (url) => {
    const first = await post(url + r.path, { ...r.auth, 'idempotency-key': `check-${randomBytes(6).toString('hex')}` });
    if (first.status !== 201 || (JSON.parse(first.body) as { event_type: string }).event_type !== 'call') throw new Error(`API answered ${first.status}: ${first.body}`);
    from = Date.now() + 1; // the check's own row stays out of the audited window
    log(`${name}: ${r.db.engine}: measuring POST with unique Idempotency-Keys at ${url}`);
    const figures = await runLoad({ ...load(r), url: url + r.path, method: 'POST', body: BODY, headers: { ...r.auth, 'idempotency-key': 'bench-[<id>]' }, uniqueIds: true });
    await settle();
    return figures;
  });
  // The server has stopped: every request it accepted has committed or failed by now.
  const c = await countWrites(r.db.handle, { accountId: r.seed.accountId, dealId: r.seed.dealId, keyPrefix: 'bench-', from, to: Date.now() });
  const ok = answered(writes, '201');
  const slack = 2 * r.options.connections; // requests in flight when autocannon stopped (warm-up and measured run) are written, never answered
  failUnless(`${r.db.engine} writes`, [
    allAnswered(writes) !== ok && `non-201 answers ${JSON.stringify({ measured: writes.statuses, warmup: writes.warmup_statuses })}`,
    writes.errors > 0 && `${writes.errors} connection errors or timeouts`,
    c.events !== c.activities && `${c.activities} activities but ${c.events} outbox events`,
    c.keys_201 !== c.activities && `${c.activities} activities but ${c.keys_201} idempotency records answered 201`,
    c.keys_running > 0 && `${c.keys_running} idempotency records left running`,
    (c.activities < ok || c.activities > ok + slack) && `${c.activities} activities for ${ok} answers 201 (at most ${slack} may be unanswered)`,
  ]);
  return { writes, counts: c, responses201: ok };
}

/** Phase 2: the same plain row through one INSERT, same engine, same data, same request bytes. */
async function measureInsertBaseline(r: EngineRun) {
  let from = 0;
  const server = await startPinnedServer('bench/lib/insert-baseline-child.ts', {
    BENCH_DATABASE_URL: r.db.url, BENCH_ACCOUNT_ID: String(r.seed.accountId), BENCH_ORG_ID: String(r.seed.orgId),
  });
  const baseline = await withServer(server, async (url) => {
    const first = await post(url + r.path, r.auth);
    if (first.status !== 201 || !Number.isInteger((JSON.parse(first.body) as { id: number }).id)) throw new Error(`insert baseline answered ${first.status}: ${first.body}`);
    from = Date.now() + 1;
    log(`${name}: ${r.db.engine}: measuring the plain INSERT route at ${url}`);
    const figures = await runLoad({ ...load(r), url: url + r.path, method: 'POST', body: BODY, headers: { ...r.auth, 'idempotency-key': 'bench-[<id>]' }, uniqueIds: true });
    await settle();
    return figures;
  });
  const rows = (await countWrites(r.db.handle, { accountId: r.seed.accountId, dealId: r.seed.dealId, keyPrefix: '', from, to: Date.now() })).activities;
  failUnless(`${r.db.engine} insert baseline`, [
    allAnswered(baseline) !== answered(baseline, '201') && `non-201 answers ${JSON.stringify(baseline.statuses)}`,
    baseline.errors > 0 && `${baseline.errors} connection errors or timeouts`,
    (rows < answered(baseline, '201') || rows > answered(baseline, '201') + 2 * r.options.connections) && `${rows} rows for ${answered(baseline, '201')} answers 201`,
  ]);
  return { baseline, rows };
}

/** Phase 3: one key replayed under load, then GET of the deal, on one server; the replay must write nothing. */
async function measureReplay(r: EngineRun) {
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const where = { accountId: r.seed.accountId, dealId: r.seed.dealId, keyPrefix: '' };
  let before: WriteCounts | undefined;
  const [replay, get] = await withServer(await apiServer(r), async (url) => {
    const headers = { ...r.auth, 'idempotency-key': key };
    const first = await post(url + r.path, headers);
    const again = await post(url + r.path, headers);
    if (first.status !== 201 || again.status !== 201 || again.replayed !== 'true' || again.body !== first.body) {
      throw new Error(`replay check: ${first.status} then ${again.status} (Idempotent-Replayed: ${again.replayed})`);
    }
    const deal = await fetch(`${url}/api/v1/deals/${r.seed.dealId}`, { headers: r.auth });
    if (deal.status !== 200) throw new Error(`GET deal answered ${deal.status}: ${await deal.text()}`);
    before = await countWrites(r.db.handle, where);
    log(`${name}: ${r.db.engine}: measuring the replay of one key, then GET /api/v1/deals/${r.seed.dealId}`);
    const replayed = await runLoad({ ...load(r), url: url + r.path, method: 'POST', body: BODY, headers, expectHeader: { name: 'idempotent-replayed', value: 'true' } });
    const got = await runLoad({ ...load(r), url: `${url}/api/v1/deals/${r.seed.dealId}`, headers: r.auth });
    return [replayed, got];
  });
  const after = await countWrites(r.db.handle, where);
  failUnless(`${r.db.engine} replay`, [
    allAnswered(replay) !== answered(replay, '201') && `non-201 answers ${JSON.stringify({ measured: replay.statuses, warmup: replay.warmup_statuses })}`,
    replay.missing_header > 0 && `${replay.missing_header} answers without Idempotent-Replayed: true`,
    replay.errors + get.errors > 0 && `${replay.errors + get.errors} connection errors or timeouts`,
    get.non_2xx > 0 && `GET deal: ${get.non_2xx} non-2xx answers`,
    JSON.stringify(after) !== JSON.stringify(before) && `the replay wrote: before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`,
  ]);
  return { replay, get, replayed_responses: allAnswered(replay) };
}

async function runEngine(engine: Engine, options: BenchOptions): Promise<void> {
  const started = Date.now();
  const db = await createScratchDatabase(engine);
  try {
    const seed = await seedDeals(db.handle, { deals: DEALS, activities: SEEDED_ACTIVITIES });
    const generateMs = Date.now() - started;
    log(`${name}: ${engine}: ${DEALS} deals and ${SEEDED_ACTIVITIES} activities generated in ${generateMs} ms`);
    const r: EngineRun = { db, seed, options, auth: { authorization: `Bearer ${seed.key}`, 'content-type': 'application/json' }, path: `/api/v1/deals/${seed.dealId}/activities` };
    const w = await measureWrites(r);
    const b = await measureInsertBaseline(r);
    const p = await measureReplay(r);
    const figures = {
      scenario: name,
      engine,
      deals: DEALS,
      seeded_activities: SEEDED_ACTIVITIES,
      generate_ms: generateMs,
      connections: options.connections,
      duration_s: options.durationSeconds,
      warmup_s: options.warmupSeconds,
      request_bytes: Buffer.byteLength(BODY),
      ...summary(w.writes),
      baseline: summary(b.baseline),
      ratio: ratio(w.writes, b.baseline),
      replay: summary(p.replay),
      replay_baseline: summary(p.get),
      replay_ratio: ratio(p.replay, p.get),
      // Warm-up writes count too: each committed its outbox event and its idempotency record with it.
      audit: {
        activities_written: w.counts.activities,
        outbox_events: w.counts.events,
        idempotency_records_201: w.counts.keys_201,
        responses_201: w.responses201,
        written_unanswered_at_stop: w.counts.activities - w.responses201,
        baseline_rows_inserted: b.rows,
        replay_responses: p.replayed_responses,
        replay_rows_written: 0,
      },
      goals: GOALS,
    };
    if (figures.ratio < GOALS.ratio) log(`GOAL MISSED: ${engine} write ratio ${figures.ratio} (goal ${GOALS.ratio})`);
    if (figures.replay_ratio < GOALS.replay_ratio) log(`GOAL MISSED: ${engine} replay ratio ${figures.replay_ratio} (goal ${GOALS.replay_ratio})`);
    process.stdout.write(JSON.stringify(figures) + '\n');
  } finally {
    await db.drop();
  }
}

/** One JSON line per engine: SQLite always, PostgreSQL when BENCH_POSTGRES_URL or TEST_POSTGRES_URL is set. */
export async function run(options: BenchOptions): Promise<void> {
  await runEngine('sqlite', options);
  if (postgresBaseUrl()) await runEngine('postgres', options);
  else log(`${name}: postgres skipped (set BENCH_POSTGRES_URL or TEST_POSTGRES_URL)`);
}
