import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { custops, waitUntil, type Child } from '../webhooks/helpers/processes.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers/receiver.ts';
import { deliveringProcessEnv, testPki } from '../webhooks/helpers/setup.ts';
import { startOwnPostgres, type OwnPostgres } from './helpers/instances.ts';
import { alive, bearer, logLines, request, startServe, steadyLoad, type Answer } from './helpers/load.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('PostgreSQL stopped with -m immediate and started again under load', () => {
  let pg: OwnPostgres;
  let receiver: Receiver;
  const children: Child[] = [];
  let env: Record<string, string>;
  let key = '';

  before(async () => {
    [pg, receiver] = await Promise.all([startOwnPostgres(), startReceiver(testPki())]);
    const database = openDatabase(pg.url, { poolSize: 2 });
    await migrateToLatest(database.db);
    const deps = { db: database.db, clock: systemClock };
    const { account } = await createAccount(deps, { name: 'Restart' });
    key = (await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: 1_000_000 })).secret;
    await database.close();
    env = deliveringProcessEnv(pg.url, { timeoutMs: 2000, dataDir: mkdtempSync(join(tmpdir(), 'custops-pg-chaos-')) });
  });

  after(async () => {
    for (const c of children) if (alive(c)) c.proc.kill('SIGKILL');
    await receiver?.close();
    await pg?.destroy();
  });

  test('serve and worker survive; the outage answers 503 within 2 s; service resumes; no answered write or event is lost', async (t) => {
    const { url } = await startServe(env, children);
    // At info level, so its start line shows (its warnings are what the test reads).
    const worker = custops(['worker'], { ...env, LOG_LEVEL: 'info' });
    children.push(worker);
    await waitUntil('the worker to start', () => /custops worker started/.test(worker.output()), 90_000);
    const api = `${url}/api/v1`;
    const post = (path: string, body: unknown) => request(`${api}${path}`, { method: 'POST', headers: bearer(key), body: JSON.stringify(body) });
    const endpoint = await post('/webhooks/endpoints', {
      name: 'restart',
      url: receiver.url('/restart'),
      event_types: ['deal.created', 'deal.activity.created'],
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const org = await post('/orgs', { name: 'Restart Org' });
    const deal = await post('/deals', { org_id: org.body.id, title: 'Through the restart' });
    assert.equal(deal.status, 201, JSON.stringify(deal.body));

    // Every write carries an Idempotency-Key, as a careful client's would: those answered 503 are retried below.
    const write = (i: number) =>
      request(`${api}/deals/${deal.body.id}/activities`, {
        method: 'POST',
        headers: bearer(key, { 'idempotency-key': `restart-${i}` }),
        body: JSON.stringify({ source_app: 'chaos', message: `note ${i}` }),
      });
    const load = steadyLoad(4, write);
    await sleep(1500);
    const stoppedAt = Date.now();
    await pg.stopImmediately();
    // During the outage: liveness stays up, readiness says why not.
    await sleep(300);
    const health = await request(`${url}/healthz`);
    const ready = await request(`${url}/readyz`);
    await sleep(2500);
    await pg.start();
    const upAt = Date.now();
    await sleep(3000);
    await load.stop();
    const answers = load.answers;

    assert.ok(alive(worker), `the worker survived: ${worker.output().slice(-1500)}`);
    assert.ok(alive(children[0]), `serve survived: ${children[0].output().slice(-1500)}`);
    assert.equal(health.status, 200);
    assert.equal(ready.status, 503);
    assert.equal(ready.body.error, 'service_unavailable');
    assert.deepEqual(ready.body.checks, { database: 'down', rate_limit: 'memory' });

    const byStatus = new Map<number, Answer[]>();
    for (const a of answers) byStatus.set(a.status, [...(byStatus.get(a.status) ?? []), a]);
    assert.deepEqual([...byStatus.keys()].sort(), [201, 503], `only 201 and 503: ${JSON.stringify([...byStatus.keys()])}`);
    const unavailable = byStatus.get(503)!;
    assert.ok(unavailable.length >= 10, `${unavailable.length} requests fell in the outage`);
    for (const a of unavailable) {
      assert.equal(a.body.error, 'service_unavailable');
      assert.match(a.body.request_id, /^req_/);
      assert.ok(a.ms < 2_000, `a 503 took ${a.ms} ms`);
    }
    // Every request sent once the database was back succeeded: the first one included.
    const afterUp = answers.filter((a) => a.sentAt >= upAt);
    assert.ok(afterUp.length >= 10, `${afterUp.length} requests after the restart`);
    assert.deepEqual([...new Set(afterUp.map((a) => a.status))], [201], 'no failure after the database returned');
    const firstOk = Math.min(...afterUp.map((a) => a.sentAt + a.ms)) - upAt;
    assert.ok(firstOk < 2_000, `first success ${firstOk} ms after the database returned`);
    assert.ok(
      answers.some((a) => a.status === 201 && a.sentAt < stoppedAt),
      'writes before the stop succeeded',
    );
    t.diagnostic(
      `${answers.length} writes: ${byStatus.get(201)!.length} × 201, ${unavailable.length} × 503 (slowest ${Math.max(...unavailable.map((a) => a.ms))} ms); ` +
        `first success ${firstOk} ms after the database returned`,
    );

    // The client retries each write the outage refused, with its key: nothing of it was kept (no
    // claim left running), so each is carried out now, at once, and exactly once.
    const refused = answers.filter((a) => a.status !== 201).map((a) => a.i!);
    const retried: (readonly [number, Answer])[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = refused.pop(); i !== undefined; i = refused.pop()) retried.push([i, await write(i)] as const);
      }),
    );
    for (const [i, a] of retried) assert.equal(a.status, 201, `restart-${i} retried: ${a.status} ${JSON.stringify(a.body)}`);
    const answered = [...byStatus.get(201)!, ...retried.map(([, a]) => a)];

    // Nothing answered 201 is missing; every write has its event; every event reaches the receiver.
    const check = openDatabase(pg.url, { poolSize: 2 });
    try {
      const created = answered.map((a) => a.body.id as number);
      const rows = await check.db.selectFrom('deal_activities').select('id').where('deal_id', '=', deal.body.id).execute();
      const stored = new Set(rows.map((r) => Number(r.id)));
      for (const id of created) assert.ok(stored.has(id), `activity ${id} answered 201 and is stored`);
      assert.equal(stored.size, answers.length, 'each keyed write stored exactly once');
      const events = await check.db.selectFrom('events').select(['public_id', 'event_type']).execute();
      assert.equal(events.filter((e) => e.event_type === 'deal.activity.created').length, stored.size, 'one outbox event per stored activity');
      const want = new Set(events.map((e) => e.public_id));
      await waitUntil(
        'every event delivered',
        () => {
          const got = new Set(receiver.received.map((r) => String(r.headers['x-service-event-id'])));
          return [...want].every((id) => got.has(id));
        },
        30_000,
        100,
      );
    } finally {
      await check.close();
    }

    // One warning for the outage in each process, not one per request or poll.
    assert.equal(logLines(children[0], /^database unavailable$/).length >= 1, true);
    assert.ok(logLines(children[0], /^database unavailable$/).length <= 2, children[0].output().slice(-3000));
    assert.doesNotMatch(children[0].output() + worker.output(), /"level":50.*webhook dispatcher pass failed|Unhandled|uncaught/i);
    for (const c of [children[0], worker]) {
      c.proc.kill('SIGTERM');
      assert.equal((await c.exited).code, 0, c.output().slice(-1500));
    }
  });
});
