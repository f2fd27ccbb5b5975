import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { generateDealsDatabase } from '../lib/data.ts';
import { log, runLoad, startPinnedServer } from '../lib/processes.ts';
import type { BenchOptions, LoadFigures } from '../lib/types.ts';

export const name = 'deal-activities';
export const description =
  'POST /api/v1/deals/{id}/activities (validation, one transaction: activity row, deal last_activity_at, outbox event) ' +
  'on a SQLite database of 20k deals and 100k activities, against a bare Fastify parsing the same JSON and answering the same 201.';

const DEALS = 20_000;
const SEEDED_ACTIVITIES = 100_000;
const BODY = JSON.stringify({
  source_app: 'bench', message: 'Called the customer about the renewal', activity_kind: 'call', outcome: 'success',
  external_reference: 'CALL-1', metadata_json: { duration_s: 310, tags: ['renewal'] },
});

/** A timeline of realistic size, so the activity indexes are not empty when the writes are measured. */
function seedActivities(path: string, accountId: number): number {
  const db = new DatabaseSync(path);
  try {
    const deals = db.prepare('select id, org_id from deals where account_id = ? order by id').all(accountId) as { id: number; org_id: number }[];
    const add = db.prepare(
      `insert into deal_activities (account_id, deal_id, org_id, event_type, message, outcome, source_app, external_reference, metadata, user_id, created_at)
       values (?, ?, ?, ?, ?, null, 'seed', null, null, null, ?)`,
    );
    const kinds = ['note', 'email', 'call', 'meeting'];
    const now = Date.now();
    db.exec('BEGIN');
    for (let i = 0; i < SEEDED_ACTIVITIES; i++) {
      const deal = deals[(i * 7919) % deals.length];
      add.run(accountId, deal.id, deal.org_id, kinds[i % 4], `Seeded activity ${i}`, now - (SEEDED_ACTIVITIES - i) * 60_000);
    }
    db.exec('COMMIT');
    db.exec('ANALYZE');
    return deals[deals.length >> 1].id;
  } finally {
    db.close();
  }
}

/** After the load: every activity written has its event, and nothing else was written. */
function audit(path: string, dealId: number): { activities: number; events: number } {
  const db = new DatabaseSync(path);
  try {
    const one = (sql: string) => Number((db.prepare(sql).get(dealId) as { n: number }).n);
    return {
      activities: one(`select count(*) as n from deal_activities where deal_id = ? and source_app = 'bench'`),
      events: one(`select count(*) as n from events where event_type = 'deal.activity.created' and json_extract(payload, '$.deal_id') = ?`),
    };
  } finally {
    db.close();
  }
}

function summary(f: LoadFigures) {
  return { req_per_s: f.req_per_s, p50_ms: f.p50_ms, p99_ms: f.p99_ms, requests: f.requests, non_2xx: f.non_2xx, errors: f.errors };
}

export async function run(options: BenchOptions): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'custops-bench-'));
  try {
    const started = Date.now();
    const db = join(dir, 'bench.db');
    const account = await generateDealsDatabase(db, { deals: DEALS });
    const dealId = seedActivities(db, account.accountId);
    const generateMs = Date.now() - started;
    log(`${name}: ${DEALS} deals and ${SEEDED_ACTIVITIES} activities generated in ${generateMs} ms`);

    const path = `/api/v1/deals/${dealId}/activities`;
    const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
    const load = { headers, connections: options.connections, durationSeconds: options.durationSeconds, warmupSeconds: options.warmupSeconds };
    const server = await startPinnedServer('bench/lib/server-child.ts', {
      DATABASE_URL: `sqlite:${db}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '',
      CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'), CUSTOPS_DATA_DIR: dir,
    });
    let body: string;
    let app: LoadFigures;
    try {
      const res = await fetch(server.url + path, { method: 'POST', headers, body: BODY });
      body = await res.text();
      if (res.status !== 201) throw new Error(`server answered ${res.status}: ${body}`);
      if ((JSON.parse(body) as { event_type: string }).event_type !== 'call') throw new Error(`unexpected body ${body}`);
      log(`${name}: measuring the API at ${server.url}`);
      app = await runLoad({ ...load, url: server.url + path, method: 'POST', body: BODY });
    } finally {
      await server.stop();
    }
    const written = audit(db, dealId);
    if (written.activities !== written.events) throw new Error(`${written.activities} activities but ${written.events} events`);

    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, body);
    const bare = await startPinnedServer('bench/lib/baseline-child.ts', { BENCH_BODY_FILE: bodyFile, BENCH_PATH: path, BENCH_METHOD: 'POST', BENCH_STATUS: '201' });
    let baseline: LoadFigures;
    try {
      const same = await fetch(bare.url + path, { method: 'POST', headers, body: BODY });
      if (same.status !== 201 || (await same.text()) !== body) throw new Error('the baseline does not answer the same 201 body');
      log(`${name}: measuring the baseline at ${bare.url}`);
      baseline = await runLoad({ ...load, url: bare.url + path, method: 'POST', body: BODY });
    } finally {
      await bare.stop();
    }

    const figures = {
      scenario: name,
      deals: DEALS,
      seeded_activities: SEEDED_ACTIVITIES,
      generate_ms: generateMs,
      connections: options.connections,
      duration_s: options.durationSeconds,
      request_bytes: Buffer.byteLength(BODY),
      response_bytes: Buffer.byteLength(body),
      // Warm-up writes count too: every one must have committed its outbox event with it.
      activities_written: written.activities,
      events_written: written.events,
      ...summary(app),
      baseline: summary(baseline),
      ratio: Math.round((app.req_per_s / baseline.req_per_s) * 1000) / 1000,
    };
    process.stdout.write(JSON.stringify(figures) + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
