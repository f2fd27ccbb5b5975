import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { alive, bearer, request, startServe, steadyLoad } from '../faults/helpers/load.ts';
import { custops, type Child } from '../webhooks/helpers/processes.ts';

async function run(args: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, env, { out: (l) => (stdout += l + '\n'), err: (l) => (stderr += l + '\n') });
  return { code, stdout, stderr };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('custops backup', () => {
  const children: Child[] = [];
  let dir: string;
  let env: Record<string, string>;
  let key = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'custops-backup-'));
    // The checkpoint thread on (as by default), named so the test keeps covering it: a serve whose thread
    // once opened and closed the wal-index itself lost SQLite's lock on it and died of SIGBUS when the
    // backup's connection closed (src/db/sqlite-checkpointer.ts, shmDescriptor).
    env = { DATABASE_URL: `sqlite:${join(dir, 'live.db')}`, CUSTOPS_DATA_DIR: dir, LOG_LEVEL: 'warn', CUSTOPS_SQLITE_CHECKPOINT_THREAD: '1' };
    const database = openDatabase(env.DATABASE_URL);
    await migrateToLatest(database.db);
    const deps = { db: database.db, clock: systemClock };
    const { account } = await createAccount(deps, { name: 'Backed up' });
    key = (await createApiKey(deps, { accountId: account.id, name: 'k', scopes: ['*'], rateLimitPerMinute: 1_000_000 })).secret;
    await database.close();
  });
  after(() => {
    for (const c of children) if (alive(c)) c.proc.kill('SIGKILL');
  });

  test('a copy taken under write load restores to a database holding every write answered 201 before it began', async (t) => {
    const { url } = await startServe(env, children);
    const post = (path: string, body: unknown) => request(`${url}/api/v1${path}`, { method: 'POST', headers: bearer(key), body: JSON.stringify(body) });
    const org = await post('/orgs', { name: 'Backup Org' });
    const deal = await post('/deals', { org_id: org.body.id, title: 'Backed-up deal' });
    assert.equal(deal.status, 201);
    const load = steadyLoad(4, (i) => post(`/deals/${deal.body.id}/activities`, { source_app: 'backup', message: `note ${i}` }));
    await sleep(1500);
    const target = join(dir, 'copy.db');
    // The real command, as a separate process beside the serving one.
    const began = Date.now();
    const backup = custops(['backup', '--to', target], env);
    const exit = await backup.exited;
    const ended = Date.now();
    await sleep(300);
    await load.stop();
    assert.equal(exit.code, 0, backup.output());
    const printed = JSON.parse(backup.output().trim().split('\n').at(-1)!);
    assert.equal(printed.backup, target);
    assert.equal(printed.integrity, 'ok');
    assert.ok(printed.bytes > 0 && printed.pages > 0);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.includes('.partial-')),
      [],
      'no partial file left',
    );

    const ok = load.answers.filter((a) => a.status === 201);
    assert.deepEqual([...new Set(load.answers.map((a) => a.status))], [201], 'the service kept answering while the copy was made');
    const before = ok.filter((a) => a.sentAt + a.ms < began).map((a) => a.body.id as number);
    const during = ok.filter((a) => a.sentAt + a.ms >= began && a.sentAt <= ended);
    t.diagnostic(`${before.length} writes answered before the backup began, ${during.length} while it ran (${printed.duration_ms} ms)`);
    assert.ok(before.length >= 5 && during.length >= 1, 'writes before and during the backup');

    // Restore: the copy put in place of a database file, and served.
    const restored = join(dir, 'restored.db');
    copyFileSync(target, restored);
    const copy = new DatabaseSync(restored, { readOnly: true });
    const ids = new Set((copy.prepare('select id from deal_activities where deal_id = ?').all(deal.body.id) as { id: number }[]).map((r) => Number(r.id)));
    const events = Number((copy.prepare("select count(*) as n from events where event_type = 'deal.activity.created'").get() as { n: number }).n);
    copy.close();
    for (const id of before) assert.ok(ids.has(id), `activity ${id}, answered 201 before the backup began, is in the copy`);
    assert.equal(events, ids.size, 'a consistent snapshot: every activity in the copy has its outbox event, and no event is without one');
    const served = await startServe({ ...env, DATABASE_URL: `sqlite:${restored}` }, children);
    const listed = await request(`${served.url}/api/v1/deals/${deal.body.id}/activities?per_page=1`, { headers: bearer(key) });
    assert.equal(listed.status, 200);
    assert.equal(listed.body.pagination.total, ids.size, 'the restored database serves the same activities');
  });

  test('refusals: an existing file, a missing folder, an in-memory database, and PostgreSQL (naming pg_dump)', async () => {
    const existing = join(dir, 'exists.db');
    writeFileSync(existing, 'x');
    const refused = await run(['backup', '--to', existing], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^custops: backup failed: .*already exists/);
    const missing = await run(['backup', '--to', join(dir, 'no', 'such', 'folder.db')], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /does not exist/);
    const memory = await run(['backup', '--to', join(dir, 'mem.db')], { ...env, DATABASE_URL: 'sqlite::memory:' });
    assert.equal(memory.code, 1);
    assert.match(memory.stderr, /in-memory/);
    assert.equal(existsSync(join(dir, 'mem.db')), false);
    const postgres = await run(['backup', '--to', join(dir, 'pg.db')], { ...env, DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    assert.equal(postgres.code, 1);
    assert.match(postgres.stderr, /pg_dump/);
    assert.equal(postgres.stderr.trim().split('\n').length, 1, 'one line');
    assert.equal(existsSync(join(dir, 'pg.db')), false);
    const usage = await run(['backup'], env);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--to is required/);
  });
});
