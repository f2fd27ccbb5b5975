import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, FixedClock, type Harness } from '../helpers/harness.ts';
import { assertError } from '../helpers/route-checks.ts';
import { purgeExpiredKeys } from '../../src/modules/idempotency/idempotency.repository.ts';
import { bytesFingerprint, requestFingerprint } from '../../src/modules/idempotency/idempotency.plugin.ts';
import { engineOf } from '../../src/db/engine.ts';
import { failInserts } from '../helpers/faults.ts';

// POST /orgs (an extension that creates one row per call) is the write used to observe idempotency.
const URL = '/api/v1/orgs';

async function orgCount(h: Harness, accountId: number): Promise<number> {
  const r = await h.db
    .selectFrom('orgs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

for (const engine of engines()) {
  describe(`idempotency [${engine}]`, () => {
    let h: Harness;
    const clock = new FixedClock('2026-11-21T12:00:00Z');
    before(async () => {
      h = await createHarness(engine, { clock });
    });
    after(() => h.close());

    test('a replay returns the original status, body and Location, marked, and creates nothing', async () => {
      const a = await createTestAccount(h);
      const headers = { 'idempotency-key': 'create-acme' };
      const first = await call(h, 'POST', URL, { key: a.key, body: { name: 'Acme' }, headers });
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.headers['idempotent-replayed'], undefined);
      const replay = await call(h, 'POST', URL, { key: a.key, body: { name: 'Acme' }, headers });
      assert.equal(replay.statusCode, 201);
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, first.body);
      assert.equal(replay.headers.location, first.headers.location);
      assert.equal(await orgCount(h, a.accountId), 1);
      // An org's answer holds no credential: it is stored as sent (the org itself is a plain row too).
      const row = await h.db.selectFrom('idempotency_keys').select('response_body').where('account_id', '=', a.accountId).executeTakeFirstOrThrow();
      assert.equal(row.response_body, first.body);
    });

    test('a stored answer is encrypted at rest where it holds a credential: a webhook endpoint and its rotation (the signing secret)', async () => {
      const a = await createTestAccount(h);
      const stored = async (key: string) =>
        (
          await h.db
            .selectFrom('idempotency_keys')
            .select('response_body')
            .where('account_id', '=', a.accountId)
            .where('key', '=', key)
            .executeTakeFirstOrThrow()
        ).response_body!;
      const sealedAndReplayed = async (
        key: string,
        send: () => Promise<{ statusCode: number; body: string; headers: Record<string, unknown> }>,
        secret: (body: any) => string,
      ) => {
        const first = await send();
        assert.ok(first.statusCode < 300, first.body);
        const body = await stored(key);
        assert.match(body, /^enc:v1:/, key);
        assert.ok(!body.includes(secret(JSON.parse(first.body))), `${key}: the secret is not readable at rest`);
        const again = await send();
        assert.equal(again.headers['idempotent-replayed'], 'true', key);
        assert.equal(again.body, first.body, `${key}: the replay shows the answer as first given, secret included`);
        assert.equal(first.headers['cache-control'], 'no-store', key);
        assert.equal(again.headers['cache-control'], 'no-store', `${key}: its replay is not to be kept either`);
        return JSON.parse(first.body);
      };
      const endpoint = await sealedAndReplayed(
        'endpoint',
        () =>
          call(h, 'POST', '/api/v1/webhooks/endpoints', {
            key: a.key,
            body: { name: 'Sealed', url: 'https://example.com/hooks/sealed', event_types: ['deal.won'] },
            headers: { 'idempotency-key': 'endpoint' },
          }),
        (b) => b.secret,
      );
      await sealedAndReplayed(
        'rotation',
        () => call(h, 'POST', `/api/v1/webhooks/endpoints/${endpoint.id}/rotate-secret`, { key: a.key, body: {}, headers: { 'idempotency-key': 'rotation' } }),
        (b) => b.secret,
      );
      // A write answering no credential, on the same account: stored as sent, and cacheable as before.
      const org = await call(h, 'POST', URL, { key: a.key, body: { name: 'Plain' }, headers: { 'idempotency-key': 'org' } });
      assert.equal(await stored('org'), org.body);
      assert.equal(org.headers['cache-control'], undefined);
    });

    test('a retry of the very same bytes is replayed before its body is decoded; other bytes of the same request through the canonical fingerprint', async () => {
      const a = await createTestAccount(h);
      const bytes = '{"name":"Bytes Co","domain":"bytes.example"}';
      const sameRequest = '{ "domain": "bytes.example",\n  "name": "Bytes Co" }';
      const send = (body: string, key = 'bytes') => call(h, 'POST', URL, { key: a.key, body, headers: { 'idempotency-key': key } });
      const first = await send(bytes);
      assert.equal(first.statusCode, 201, first.body);
      const record = () =>
        h.db.selectFrom('idempotency_keys').selectAll().where('account_id', '=', a.accountId).where('key', '=', 'bytes').executeTakeFirstOrThrow();
      // SHA-256 of method, URL and body bytes, computed here independently of the service's code.
      assert.equal((await record()).request_bytes_hash, createHash('sha256').update(`POST ${URL}\n${bytes}`).digest('hex'));
      assert.equal(bytesFingerprint('POST', URL, Buffer.from(bytes)), createHash('sha256').update(`POST ${URL}\n${bytes}`).digest('hex'));
      for (const body of [bytes, sameRequest]) {
        const again = await send(body);
        assert.equal(again.headers['idempotent-replayed'], 'true', body);
        assert.equal(again.body, first.body);
      }
      // Which stage decides: with the canonical fingerprint made another request's, the same bytes still
      // replay (judged on their bytes, before decoding), while the same request in other bytes is judged
      // on its decoded body, and refused.
      await h.db
        .updateTable('idempotency_keys')
        .set({ request_hash: 'another request' })
        .where('account_id', '=', a.accountId)
        .where('key', '=', 'bytes')
        .execute();
      assert.equal((await send(bytes)).headers['idempotent-replayed'], 'true');
      assertError(await send(sameRequest), 422, 'idempotency_key_reused');
      // The same bytes to another path, or with a query string, are judged on the decoded request, not
      // replayed: another route's validation refuses them, and a query must pass its own checks first.
      assertError(await call(h, 'POST', `${URL}/resolve`, { key: a.key, body: bytes, headers: { 'idempotency-key': 'bytes' } }), 422, 'validation_error');
      const nul = await call(h, 'POST', `${URL}?x=%00`, { key: a.key, body: bytes, headers: { 'idempotency-key': 'bytes' } });
      assert.equal(nul.statusCode, 422, nul.body);
      assert.notEqual(nul.headers['idempotent-replayed'], 'true');
      // A record that answers nothing yet (left running, its write committed) is not replayed on its bytes: 409 as before.
      await h.db
        .updateTable('idempotency_keys')
        .set({ state: 'running', response_body: null, request_hash: requestFingerprint('POST', URL, JSON.parse(bytes)) })
        .where('account_id', '=', a.accountId)
        .where('key', '=', 'bytes')
        .execute();
      assertError(await send(bytes), 409, 'conflict');
      // An expired record is not replayed on its bytes either: the request runs again.
      await h.db
        .updateTable('idempotency_keys')
        .set({ state: 'done', response_body: first.body, expires_at: clock.now() })
        .where('account_id', '=', a.accountId)
        .where('key', '=', 'bytes')
        .execute();
      const rerun = await send(bytes);
      assert.equal(rerun.statusCode, 201, rerun.body);
      assert.equal(rerun.headers['idempotent-replayed'], undefined);
      assert.equal(await orgCount(h, a.accountId), 2);
    });

    test('before a replay of the same bytes come the access checks: a key without the scope is 403, over its rate limit 429', async () => {
      const a = await createTestAccount(h);
      const bytes = '{"name":"Checked first"}';
      const headers = { 'idempotency-key': 'checked' };
      assert.equal((await call(h, 'POST', URL, { key: a.key, body: bytes, headers })).statusCode, 201);
      assertError(await call(h, 'POST', URL, { key: await a.keyWith(['orgs:read']), body: bytes, headers }), 403, 'forbidden');
      const limited = await a.keyWith(['*'], 1);
      assert.equal((await call(h, 'POST', URL, { key: limited, body: bytes, headers })).headers['idempotent-replayed'], 'true');
      assertError(await call(h, 'POST', URL, { key: limited, body: bytes, headers }), 429, 'rate_limited');
      assert.equal(await orgCount(h, a.accountId), 1);
    });

    test('a header key with a body key too, and a retry without a body, replay', async () => {
      const a = await createTestAccount(h);
      const both = await call(h, 'POST', URL, { key: a.key, body: { name: 'Both', idempotency_key: 'in-body' }, headers: { 'idempotency-key': 'in-header' } });
      assert.equal(both.statusCode, 201, both.body);
      const again = await call(h, 'POST', URL, { key: a.key, body: { name: 'Both', idempotency_key: 'in-body' }, headers: { 'idempotency-key': 'in-header' } });
      assert.equal(again.headers['idempotent-replayed'], 'true');
      assert.equal(again.body, both.body);
      const endpoint = (
        await call(h, 'POST', '/api/v1/webhooks/endpoints', {
          key: a.key,
          body: { name: 'Bodiless', url: 'https://example.com/hooks/bodiless', event_types: ['deal.won'] },
        })
      ).json();
      const rotate = () =>
        call(h, 'POST', `/api/v1/webhooks/endpoints/${endpoint.id}/rotate-secret`, { key: a.key, headers: { 'idempotency-key': 'bodiless' } });
      const first = await rotate();
      assert.equal(first.statusCode, 200, first.body);
      const replay = await rotate();
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(replay.body, first.body);
      assert.equal(replay.headers['cache-control'], 'no-store');
    });

    test('the bytes stage never refuses: with the key records unreadable, a malformed keyed body is still 422', async () => {
      const a = await createTestAccount(h);
      await sql`alter table idempotency_keys rename to idempotency_keys_away`.execute(h.db);
      try {
        const res = await call(h, 'POST', URL, { key: a.key, body: '{"name": ', headers: { 'idempotency-key': 'unreadable' } });
        assert.equal(assertError(res, 422, 'validation_error').fields.body, 'invalid_json');
      } finally {
        await sql`alter table idempotency_keys_away rename to idempotency_keys`.execute(h.db);
      }
      assert.equal(
        (await call(h, 'POST', URL, { key: a.key, body: { name: 'Readable again' }, headers: { 'idempotency-key': 'unreadable' } })).statusCode,
        201,
      );
    });

    test('the body field idempotency_key works, and the header wins over it', async () => {
      const a = await createTestAccount(h);
      const first = await call(h, 'POST', URL, { key: a.key, body: { name: 'Body Key', idempotency_key: 'k-body' } });
      assert.equal(first.statusCode, 201, first.body);
      const replay = await call(h, 'POST', URL, { key: a.key, body: { name: 'Body Key', idempotency_key: 'k-body' } });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      // Same body key, but a header naming another key: the header's key is used, so this is a new request.
      const other = await call(h, 'POST', URL, {
        key: a.key,
        body: { name: 'Body Key', idempotency_key: 'k-body' },
        headers: { 'idempotency-key': 'k-header' },
      });
      assert.equal(other.statusCode, 201);
      assert.equal(other.headers['idempotent-replayed'], undefined);
      assert.equal(await orgCount(h, a.accountId), 2);
      // The body's key with another body: refused after decoding (no bytes stage without the header), on the record read there.
      assertError(await call(h, 'POST', URL, { key: a.key, body: { name: 'Other', idempotency_key: 'k-body' } }), 422, 'idempotency_key_reused');
      assert.equal(await orgCount(h, a.accountId), 2);
    });

    test('the same key with a different body is 422 idempotency_key_reused', async () => {
      const a = await createTestAccount(h);
      const headers = { 'idempotency-key': 'mismatch' };
      assert.equal((await call(h, 'POST', URL, { key: a.key, body: { name: 'One' }, headers })).statusCode, 201);
      assertError(await call(h, 'POST', URL, { key: a.key, body: { name: 'Two' }, headers }), 422, 'idempotency_key_reused');
      assert.equal(await orgCount(h, a.accountId), 1);
    });

    test('keys are scoped to the account', async () => {
      const a = await createTestAccount(h);
      const b = await createTestAccount(h);
      const headers = { 'idempotency-key': 'shared-name' };
      const fa = await call(h, 'POST', URL, { key: a.key, body: { name: 'Same' }, headers });
      const fb = await call(h, 'POST', URL, { key: b.key, body: { name: 'Same' }, headers });
      assert.equal(fa.statusCode, 201);
      assert.equal(fb.statusCode, 201);
      assert.equal(fb.headers['idempotent-replayed'], undefined);
      assert.notEqual(fa.json().id, fb.json().id);
    });

    test('validation failures are not stored: a corrected retry with the same key succeeds', async () => {
      const a = await createTestAccount(h);
      const headers = { 'idempotency-key': 'fix-and-retry' };
      assertError(await call(h, 'POST', URL, { key: a.key, body: { name: 42 }, headers }), 422, 'validation_error');
      const fixed = await call(h, 'POST', URL, { key: a.key, body: { name: 'Fixed' }, headers });
      assert.equal(fixed.statusCode, 201);
      assert.equal(fixed.headers['idempotent-replayed'], undefined);
    });

    test('records expire after the retention window and are purged', async () => {
      const a = await createTestAccount(h);
      const headers = { 'idempotency-key': 'expiring' };
      assert.equal((await call(h, 'POST', URL, { key: a.key, body: { name: 'Old' }, headers })).statusCode, 201);
      clock.advance(23 * 3_600_000);
      assert.equal((await call(h, 'POST', URL, { key: a.key, body: { name: 'Old' }, headers })).headers['idempotent-replayed'], 'true');
      clock.advance(2 * 3_600_000);
      const fresh = await call(h, 'POST', URL, { key: a.key, body: { name: 'New' }, headers });
      assert.equal(fresh.statusCode, 201, 'an expired key is free again, even with another body');
      assert.equal(await orgCount(h, a.accountId), 2);
      clock.advance(25 * 3_600_000);
      assert.ok((await purgeExpiredKeys(h.db, clock.now())) >= 1);
      const left = await h.db.selectFrom('idempotency_keys').select('id').where('account_id', '=', a.accountId).execute();
      assert.equal(left.length, 0);
    });

    test('the response is stored by the write transaction itself', async () => {
      const a = await createTestAccount(h);
      assert.equal((await call(h, 'POST', URL, { key: a.key, body: { name: 'Marked' }, headers: { 'idempotency-key': 'marked' } })).statusCode, 201);
      const row = await h.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('account_id', '=', a.accountId)
        .where('key', '=', 'marked')
        .executeTakeFirstOrThrow();
      assert.equal(row.state, 'done');
      assert.ok(row.committed_at !== null);
    });

    test('the change and its stored response commit together: if storing fails, nothing is kept and the retry runs at once', async () => {
      const a = await createTestAccount(h);
      const headers = { 'idempotency-key': 'store-fails' };
      const restore = await failInserts(h, 'idempotency_keys');
      try {
        assertError(await call(h, 'POST', URL, { key: a.key, body: { name: 'Half' }, headers }), 500, 'internal_error');
      } finally {
        await restore();
      }
      assert.equal(await orgCount(h, a.accountId), 0, 'the org went with the response');
      // No waiting: nothing of the first attempt is left, so the same key runs again at once.
      const retry = await call(h, 'POST', URL, { key: a.key, body: { name: 'Half' }, headers });
      assert.equal(retry.statusCode, 201, retry.body);
      assert.equal(retry.headers['idempotent-replayed'], undefined);
      assert.equal(await orgCount(h, a.accountId), 1);
      assert.equal((await call(h, 'POST', URL, { key: a.key, body: { name: 'Half' }, headers })).headers['idempotent-replayed'], 'true');
    });

    test('records left running by the earlier claim-then-write versions: committed is 409 conflict, not committed runs at once', async () => {
      const a = await createTestAccount(h);
      const body = { name: 'After crash' };
      const leftBehind = (key: string, committedAt: number | null) =>
        h.db
          .insertInto('idempotency_keys')
          .values({
            account_id: a.accountId,
            key,
            request_hash: requestFingerprint('POST', URL, body),
            state: 'running',
            response_status: null,
            response_body: null,
            location: null,
            committed_at: committedAt,
            created_at: clock.now(),
            expires_at: clock.now() + 3_600_000,
          })
          .execute();
      // Died after its write committed, before the response was stored: never run again.
      await leftBehind('died-after-commit', clock.now());
      assertError(await call(h, 'POST', URL, { key: a.key, body, headers: { 'idempotency-key': 'died-after-commit' } }), 409, 'conflict');
      assert.equal(await orgCount(h, a.accountId), 0);
      // Died before its write committed: the retry runs at once, then replays.
      await leftBehind('died-before-commit', null);
      const rerun = await call(h, 'POST', URL, { key: a.key, body, headers: { 'idempotency-key': 'died-before-commit' } });
      assert.equal(rerun.statusCode, 201, rerun.body);
      const replay = await call(h, 'POST', URL, { key: a.key, body, headers: { 'idempotency-key': 'died-before-commit' } });
      assert.equal(replay.headers['idempotent-replayed'], 'true');
      assert.equal(await orgCount(h, a.accountId), 1);
    });

    test('a request refused after it started (404) keeps its answer; a 409 conflict does not', async () => {
      const a = await createTestAccount(h);
      const missing = { org_id: 999_999_999, title: 'Ghost' };
      const headers = { 'idempotency-key': 'refused' };
      assertError(await call(h, 'POST', '/api/v1/deals', { key: a.key, body: missing, headers }), 404, 'org_not_found');
      const again = await call(h, 'POST', '/api/v1/deals', { key: a.key, body: missing, headers });
      assert.equal(again.statusCode, 404);
      assert.equal(again.headers['idempotent-replayed'], 'true');
      const user = { email: `taken-${Date.now()}@example.com`, display_name: 'Taken' };
      assert.equal((await call(h, 'POST', '/api/v1/users', { key: a.key, body: user })).statusCode, 201);
      const conflictHeaders = { 'idempotency-key': 'conflict-then-free' };
      assertError(await call(h, 'POST', '/api/v1/users', { key: a.key, body: user, headers: conflictHeaders }), 409, 'conflict');
      const retried = await call(h, 'POST', '/api/v1/users', { key: a.key, body: user, headers: conflictHeaders });
      assert.equal(retried.headers['idempotent-replayed'], undefined, 'a conflict is evaluated again');
    });

    if (engine === 'postgres') {
      test('a key held by a write in another process is 409 idempotency_key_in_use, and free once that write ends', async () => {
        const a = await createTestAccount(h);
        const headers = { 'idempotency-key': 'held-elsewhere' };
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        let locked!: () => void;
        const lockTaken = new Promise<void>((r) => (locked = r));
        // Another process's write transaction: it holds the key's lock until it ends.
        const other = h.db.transaction().execute(async (trx) => {
          assert.ok(await engineOf(trx).tryTransactionLock(trx, a.accountId, 'held-elsewhere'));
          locked();
          await held;
        });
        await lockTaken;
        assertError(await call(h, 'POST', URL, { key: a.key, body: { name: 'Held' }, headers }), 409, 'idempotency_key_in_use');
        release();
        await other;
        assert.equal((await call(h, 'POST', URL, { key: a.key, body: { name: 'Held' }, headers })).statusCode, 201);
        assert.equal(await orgCount(h, a.accountId), 1);
      });
    }

    test('an over-long key is 422 naming the header', async () => {
      const a = await createTestAccount(h);
      const body = assertError(
        await call(h, 'POST', URL, { key: a.key, body: { name: 'X' }, headers: { 'idempotency-key': 'k'.repeat(256) } }),
        422,
        'validation_error',
      );
      assert.ok(body.fields['Idempotency-Key']);
    });

    test('20 concurrent requests with one key create exactly one record', async () => {
      const a = await createTestAccount(h);
      const headers = { 'idempotency-key': 'burst' };
      const results = await Promise.all(Array.from({ length: 20 }, () => call(h, 'POST', URL, { key: a.key, body: { name: 'Burst' }, headers })));
      const statuses = results.map((r) => r.statusCode);
      assert.ok(
        statuses.every((s) => s === 201 || s === 409),
        statuses.join(','),
      );
      assert.ok(statuses.includes(201));
      for (const r of results.filter((r) => r.statusCode === 409)) assert.equal(r.json().error, 'idempotency_key_in_use');
      const created = results.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] === undefined);
      assert.equal(created.length, 1, 'one request did the work');
      assert.equal(await orgCount(h, a.accountId), 1);
    });
  });
}
