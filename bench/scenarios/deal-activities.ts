import { randomBytes } from 'node:crypto';
import { createScratchDatabase, seedDeals, type Engine, type ScratchDatabase, type SeededDeals } from '../lib/deal-data.ts';
import { onEachEngine } from '../lib/engines.ts';
import { log, startPinnedServer, startServiceChild, type PinnedServer } from '../lib/processes.ts';
import { alternate, ROUNDS, type Combined } from '../lib/rounds.ts';
import type { BenchOptions } from '../lib/types.ts';
import { countWrites, failUnless } from './deal-activities-audit.ts';
import { databaseUrlFor } from './deal-get.ts';

export const name = 'deal-activities';
export const description =
  'POST /api/v1/deals/{id}/activities with a unique Idempotency-Key per request (auth, validation, idempotency record, one transaction: ' +
  'activity, deal last_activity_at, outbox event) against a bare Fastify doing one plain INSERT of the same row with the same driver; and ' +
  "the replay of one key against GET /api/v1/deals/{id} on the same server; each server's CPU per request (from /proc), and on PostgreSQL the database's CPU per write. 20k deals, 100k activities; " +
  'SQLite, and PostgreSQL when configured.';

const DEALS = 20_000;
const SEEDED_ACTIVITIES = 100_000;
const GOALS = { ratio: 0.6, replay_ratio: 0.9 };
const BODY = JSON.stringify({
  source_app: 'bench',
  message: 'Called the customer about the renewal',
  activity_kind: 'call',
  outcome: 'success',
  external_reference: 'CALL-1',
  metadata_json: { duration_s: 310, tags: ['renewal'] },
});
/** autocannon puts a fresh id in place of `[<id>]` on every request (both sides get the same bytes). */
const UNIQUE_KEY = 'bench-[<id>]';

function summary(f: Combined) {
  return {
    req_per_s: f.req_per_s,
    p50_ms: f.p50_ms,
    p99_ms: f.p99_ms,
    requests: f.requests,
    non_2xx: f.non_2xx,
    errors: f.errors,
    rounds_req_per_s: f.rounds,
    ...(f.cpu_us_per_request === null ? {} : { cpu_us_per_request: f.cpu_us_per_request }),
    ...(f.db_cpu_us_per_request === null ? {} : { db_cpu_us_per_request: f.db_cpu_us_per_request }),
  };
}

const ratio = (a: Combined, b: Combined) => Math.round((a.req_per_s / b.req_per_s) * 1000) / 1000;
const cpuRatio = (a: Combined, b: Combined) =>
  a.cpu_us_per_request === null || b.cpu_us_per_request === null ? null : Math.round((a.cpu_us_per_request / b.cpu_us_per_request) * 1000) / 1000;
const dbCpuRatio = (a: Combined, b: Combined) =>
  a.db_cpu_us_per_request === null || b.db_cpu_us_per_request === null ? null : Math.round((a.db_cpu_us_per_request / b.db_cpu_us_per_request) * 1000) / 1000;
const roundRatios = (a: Combined, b: Combined) => a.rounds.map((n, i) => Math.round((n / b.rounds[i]) * 1000) / 1000);
const answered = (f: Combined, status: string) => (f.statuses[status] ?? 0) + (f.warmup_statuses[status] ?? 0);
const allAnswered = (f: Combined) => [f.statuses, f.warmup_statuses].flatMap((s) => Object.values(s)).reduce((a, b) => a + b, 0);
const statuses = (f: Combined) => JSON.stringify({ measured: f.statuses, warmup: f.warmup_statuses });

/**
 * autocannon drops its connections with requests still in flight; the server finishes them, but
 * a SIGTERM at that moment races them (their client is gone, so closing does not wait for them).
 * The audit is about the write path, not shutdown: let them finish first.
 */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000));

async function stopAll(servers: PinnedServer[]): Promise<void> {
  await Promise.all(servers.map((s) => s.stop()));
}

async function post(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers, body: BODY });
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.text() };
}

interface EngineRun {
  db: ScratchDatabase;
  seed: SeededDeals;
  options: BenchOptions;
  auth: Record<string, string>;
  /** One key for every server of the run: the database remembers the key that first served it. */
  secretKey: string;
}

const activitiesPath = (dealId: number) => `/api/v1/deals/${dealId}/activities`;

function apiServer(r: EngineRun): Promise<PinnedServer> {
  return startServiceChild({
    DATABASE_URL: databaseUrlFor(r.db),
    CUSTOPS_SECRET_KEY: r.secretKey,
    CUSTOPS_DATA_DIR: r.db.dir,
  });
}

/**
 * Writes: the API on one deal, every request with a new key; the plain INSERT route on the
 * neighbouring deal (same engine, data and request bytes). Then the outbox, the activities, the
 * idempotency records and the 201s must all agree.
 */
async function measureWrites(r: EngineRun) {
  const { seed } = r;
  const servers: PinnedServer[] = [];
  let from = 0;
  let api: Combined;
  let plain: Combined;
  // The plain INSERT route writes one row: the trigger that moves a deal's last_activity_at
  // (migration 2026-11-27T1910) must not add an update of its deal to it. A time past every
  // insert's keeps the trigger's update from matching (the floor stays what the goal was set on).
  await r.db.handle.db.updateTable('deals').set({ last_activity_at: 8_640_000_000_000_000 }).where('id', '=', seed.otherDealId).execute();
  try {
    servers[0] = await apiServer(r);
    const apiUrl = servers[0].url + activitiesPath(seed.dealId);
    servers[1] = await startPinnedServer('bench/lib/insert-baseline-child.ts', {
      BENCH_DATABASE_URL: databaseUrlFor(r.db),
      BENCH_ACCOUNT_ID: String(seed.accountId),
      BENCH_ORG_ID: String(seed.otherOrgId),
    });
    const plainUrl = servers[1].url + activitiesPath(seed.otherDealId);
    const first = await post(apiUrl, { ...r.auth, 'idempotency-key': `check-${randomBytes(6).toString('hex')}` });
    if (first.status !== 201 || (JSON.parse(first.body) as { event_type: string }).event_type !== 'call')
      throw new Error(`API answered ${first.status}: ${first.body}`);
    const plainFirst = await post(plainUrl, r.auth);
    if (plainFirst.status !== 201 || !Number.isInteger((JSON.parse(plainFirst.body) as { id: number }).id))
      throw new Error(`insert route answered ${plainFirst.status}: ${plainFirst.body}`);
    from = Date.now() + 1; // the checks' own rows stay out of the audited window
    const headers = { ...r.auth, 'idempotency-key': UNIQUE_KEY };
    // On PostgreSQL the database's own CPU per write too (its server's processes, when it runs on this machine).
    const database = r.db.engine === 'postgres';
    [api, plain] = await alternate(
      { url: apiUrl, method: 'POST', body: BODY, headers, uniqueIds: true, pid: servers[0].pid, database },
      { url: plainUrl, method: 'POST', body: BODY, headers, uniqueIds: true, pid: servers[1].pid, database },
      r.options,
      (round) => log(`${name}: ${r.db.engine}: writes round ${round}/${ROUNDS}: API, then the plain INSERT route`),
    );
    await settle();
  } finally {
    await stopAll(servers);
  }
  // Both servers have stopped: every request they accepted has committed or failed by now.
  const c = await countWrites(r.db.handle, { accountId: seed.accountId, dealId: seed.dealId, keyPrefix: 'bench-', from });
  const plainRows = (await countWrites(r.db.handle, { accountId: seed.accountId, dealId: seed.otherDealId, keyPrefix: 'bench-', from })).activities;
  const ok = answered(api, '201');
  const plainOk = answered(plain, '201');
  // Each autocannon run ends with up to one request per connection sent, written, and never read.
  const slack = (n: Combined) => n.runs * r.options.connections;
  failUnless(`${r.db.engine} writes`, [
    allAnswered(api) !== ok && `API: non-201 answers ${statuses(api)}`,
    allAnswered(plain) !== plainOk && `insert route: non-201 answers ${statuses(plain)}`,
    api.errors + plain.errors > 0 && `${api.errors + plain.errors} connection errors or timeouts`,
    c.events !== c.activities && `${c.activities} activities but ${c.events} outbox events`,
    c.keys_201 !== c.activities && `${c.activities} activities but ${c.keys_201} idempotency records answered 201`,
    c.keys_running > 0 && `${c.keys_running} idempotency records left running`,
    (c.activities < ok || c.activities > ok + slack(api)) && `${c.activities} activities for ${ok} answers 201 (at most ${slack(api)} unanswered)`,
    (plainRows < plainOk || plainRows > plainOk + slack(plain)) && `insert route: ${plainRows} rows for ${plainOk} answers 201`,
  ]);
  return { api, plain, counts: c, responses201: ok, plainRows };
}

/** Replay of one key under load against GET of the deal, on one server; the replays must write nothing. */
async function measureReplay(r: EngineRun) {
  const key = `replay-${randomBytes(6).toString('hex')}`;
  const where = { accountId: r.seed.accountId, dealId: r.seed.dealId, keyPrefix: '' };
  const server = await apiServer(r);
  let replay: Combined;
  let get: Combined;
  let before: string;
  try {
    const headers = { ...r.auth, 'idempotency-key': key };
    const url = server.url + activitiesPath(r.seed.dealId);
    const dealUrl = `${server.url}/api/v1/deals/${r.seed.dealId}`;
    const first = await post(url, headers);
    const again = await post(url, headers);
    if (first.status !== 201 || again.status !== 201 || again.replayed !== 'true' || again.body !== first.body) {
      throw new Error(`replay check: ${first.status} then ${again.status} (Idempotent-Replayed: ${again.replayed})`);
    }
    const deal = await fetch(dealUrl, { headers: r.auth });
    if (deal.status !== 200) throw new Error(`GET deal answered ${deal.status}: ${await deal.text()}`);
    before = JSON.stringify(await countWrites(r.db.handle, where));
    [replay, get] = await alternate(
      { url, method: 'POST', body: BODY, headers, expectHeader: { name: 'idempotent-replayed', value: 'true' }, pid: server.pid },
      { url: dealUrl, headers: r.auth, pid: server.pid },
      r.options,
      (round) => log(`${name}: ${r.db.engine}: replay round ${round}/${ROUNDS}: one key replayed, then GET /api/v1/deals/${r.seed.dealId}`),
    );
  } finally {
    await server.stop();
  }
  const after = JSON.stringify(await countWrites(r.db.handle, where));
  failUnless(`${r.db.engine} replay`, [
    allAnswered(replay) !== answered(replay, '201') && `non-201 answers ${statuses(replay)}`,
    replay.missing_header > 0 && `${replay.missing_header} answers without Idempotent-Replayed: true`,
    replay.errors + get.errors > 0 && `${replay.errors + get.errors} connection errors or timeouts`,
    allAnswered(get) !== answered(get, '200') && `GET deal: answers ${statuses(get)}`,
    after !== before && `the replays wrote: before ${before}, after ${after}`,
  ]);
  return { replay, get, replayed: allAnswered(replay) };
}

async function runEngine(engine: Engine, options: BenchOptions): Promise<void> {
  const started = Date.now();
  const db = await createScratchDatabase(engine);
  try {
    const seed = await seedDeals(db.handle, { deals: DEALS, activities: SEEDED_ACTIVITIES });
    const generateMs = Date.now() - started;
    log(`${name}: ${engine}: ${DEALS} deals and ${SEEDED_ACTIVITIES} activities generated in ${generateMs} ms`);
    const auth = { authorization: `Bearer ${seed.key}`, 'content-type': 'application/json' };
    const r: EngineRun = { db, seed, options, auth, secretKey: randomBytes(32).toString('hex') };
    const w = await measureWrites(r);
    const p = await measureReplay(r);
    const figures = {
      scenario: name,
      engine,
      deals: DEALS,
      ...(databaseUrlFor(db) !== db.url ? { database_socket: process.env.BENCH_POSTGRES_SOCKET } : {}),
      seeded_activities: SEEDED_ACTIVITIES,
      generate_ms: generateMs,
      connections: options.connections,
      duration_s: options.durationSeconds,
      warmup_s: options.warmupSeconds,
      rounds: ROUNDS,
      request_bytes: Buffer.byteLength(BODY),
      ...summary(w.api),
      baseline: summary(w.plain),
      ratio: ratio(w.api, w.plain),
      ratio_rounds: roundRatios(w.api, w.plain),
      // PostgreSQL: the database's CPU per write over the plain insert's (null on SQLite, whose work is the server's own).
      db_cpu_ratio: dbCpuRatio(w.api, w.plain),
      replay: summary(p.replay),
      replay_baseline: summary(p.get),
      replay_ratio: ratio(p.replay, p.get),
      replay_ratio_rounds: roundRatios(p.replay, p.get),
      // The same server answers both: CPU per replay over CPU per GET, the figure a shared machine disturbs least.
      replay_cpu_ratio: cpuRatio(p.replay, p.get),
      // Warm-up writes count too: each committed its outbox event and its idempotency record with it.
      audit: {
        activities_written: w.counts.activities,
        outbox_events: w.counts.events,
        idempotency_records_201: w.counts.keys_201,
        responses_201: w.responses201,
        written_unanswered_at_stop: w.counts.activities - w.responses201,
        baseline_rows_inserted: w.plainRows,
        replay_responses: p.replayed,
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

/** One JSON line per engine. */
export const run = onEachEngine(name, runEngine);
