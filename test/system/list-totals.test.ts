import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle, type Db } from '../../src/db/database.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service.ts';
import { listDeals } from '../../src/modules/deals/deals.service.ts';
import { seedAccount } from '../../src/seed/seed.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

const NODE = 'node_modules/.bin/node';
const STATUSES = ['new', 'qualified', 'proposal', 'negotiation', 'won', 'lost'] as const;
const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;

/** A `custops serve` process on its own port; resolves with its base URL. */
function serve(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(NODE, ['bin/custops.js', 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    // A child that never started must not outlive the test (it would keep the test process running).
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${out}`));
    }, 60_000);
    const read = (d: Buffer) => {
      out += d;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], child });
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
    if (process.env.TOTALS_DEBUG)
      child.stdout!.on('data', (d) => {
        if (String(d).includes('"level":50')) process.stderr.write(String(d));
      });
  });
}

/** Runs `jobs` with at most `width` in flight. */
async function pool<T>(jobs: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const i = next++;
        results[i] = await jobs[i]();
      }
    }),
  );
  return results;
}

for (const engine of engines()) {
  describe(`list totals stay exact with two processes writing [${engine}]`, () => {
    let t: TestDatabase;
    let db: Db;
    let dir: string;
    let servers: { url: string; child: ChildProcess }[] = [];
    let key: string;
    let accountId: number;
    let orgIds: number[];

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'custops-totals-'));
      t = await createTestDatabase(engine, { sqlitePath: join(dir, 'totals.db') });
      db = t.handle.db;
      const deps = { db, clock: systemClock };
      const { account } = await createAccount(deps, { name: 'Totals' });
      accountId = account.id;
      key = (await createApiKey(deps, { accountId, name: 'writers', scopes: ['*'], rateLimitPerMinute: null })).secret;
      await seedAccount(t.handle, systemClock, { accountId, deals: 300, seed: 5 });
      orgIds = (await db.selectFrom('orgs').select('id').where('account_id', '=', accountId).execute()).map((o) => Number(o.id));
      const env = {
        ...process.env,
        DATABASE_URL: t.url,
        CUSTOPS_DATA_DIR: dir,
        CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
        CUSTOPS_RATE_LIMIT_PER_MINUTE: '1000000',
        LOG_LEVEL: 'info',
      };
      servers = await Promise.all([serve(env), serve(env)]);
    });
    after(async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise((resolve) => {
              s.child.once('exit', resolve);
              s.child.kill('SIGTERM');
            }),
        ),
      );
      await t.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    let refused = 0;
    const call = async (server: number, method: string, path: string, body?: unknown, tolerateBusy = false) => {
      const res = await fetch(`${servers[server].url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as Record<string, any>;
      // SQLite: a deferred write transaction that cannot take the write lock from another process fails at once
      // ("database is locked", a 500) and rolls back; the totals must stay exact all the same.
      if (tolerateBusy && engine === 'sqlite' && res.status === 500) {
        refused++;
        return json;
      }
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const total = async (server: number, path: string) => (await call(server, 'GET', path)).pagination.total as number;
    const counted = async (table: 'deals' | 'tickets', status?: string) => {
      let q = db
        .selectFrom(table)
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId);
      if (status) q = q.where('status', '=', status as never);
      return Number((await q.executeTakeFirstOrThrow()).n);
    };

    test('a write through one process shows in the next total read through the other', async () => {
      const before = await total(1, '/deals?status=proposal');
      const all = await total(1, '/deals');
      const deal = await call(0, 'POST', '/deals', { org_id: orgIds[0], title: 'Exact now', status: 'proposal' });
      assert.equal(await total(1, '/deals?status=proposal'), before + 1);
      assert.equal(await total(1, '/deals'), all + 1);
      await call(1, 'PATCH', `/deals/${deal.id}`, { status: 'won' });
      assert.equal(await total(0, '/deals?status=proposal'), before);
      const contacts = await total(0, '/contacts');
      await call(1, 'POST', '/contacts', { org_id: orgIds[0], name: 'Ada Exact' });
      assert.equal(await total(0, '/contacts'), contacts + 1);
    });

    test('32 concurrent writers over two processes: every total equals a count of the rows', async () => {
      const deals: number[] = (await db.selectFrom('deals').select('id').where('account_id', '=', accountId).limit(64).execute()).map((d) => Number(d.id));
      const tickets: number[] = (await db.selectFrom('tickets').select('id').where('account_id', '=', accountId).limit(32).execute()).map((d) => Number(d.id));
      const jobs: (() => Promise<unknown>)[] = [];
      for (let i = 0; i < 192; i++) {
        const server = i % 2;
        const pick = <T>(list: readonly T[]) => list[(i * 7 + 3) % list.length];
        switch (i % 6) {
          case 0:
            jobs.push(() => call(server, 'POST', '/deals', { org_id: pick(orgIds), title: `Concurrent ${i}`, status: pick(STATUSES) }, true));
            break;
          case 1:
          case 2:
            jobs.push(() => call(server, 'PATCH', `/deals/${deals[i % deals.length]}`, { status: STATUSES[i % STATUSES.length] }, true));
            break;
          case 3:
            jobs.push(() => call(server, 'PATCH', `/support/tickets/${tickets[i % tickets.length]}`, { status: TICKET_STATUSES[i % 3] }, true));
            break;
          case 4:
            jobs.push(() => call(server, 'POST', '/contacts', { org_id: pick(orgIds), name: `Writer ${i}` }, true));
            break;
          default:
            jobs.push(() => call(server, 'POST', '/orgs', { name: `Writer org ${i}` }, true));
        }
      }
      await pool(jobs, 32);
      assert.ok(refused < jobs.length / 2, `most writes went through (${refused} refused)`);
      assert.equal(await total(0, '/deals'), await counted('deals'));
      for (const s of STATUSES) assert.equal(await total(1, `/deals?status=${s}`), await counted('deals', s), `deals ${s}`);
      assert.equal(await total(0, '/support/tickets'), await counted('tickets'));
      for (const s of TICKET_STATUSES) assert.equal(await total(1, `/support/tickets?status=${s}`), await counted('tickets', s), `tickets ${s}`);
      assert.equal(await total(0, '/support/tickets?open_only=1'), (await counted('tickets', 'open')) + (await counted('tickets', 'pending')));
      const contacts = await db
        .selectFrom('contacts')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      assert.equal(await total(1, '/contacts'), Number(contacts.n));
      const orgs = await db
        .selectFrom('orgs')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      assert.equal(await total(0, '/orgs'), Number(orgs.n));
    });
  });
}

describe('a list page and its total in one statement, and PostgreSQL plans a first page once', { skip: !engines().includes('postgres') }, () => {
  let t: TestDatabase;
  let one: DatabaseHandle;
  let accountId: number;
  before(async () => {
    t = await createTestDatabase('postgres');
    // One connection, so the statements' plans are all in the session pg_prepared_statements shows.
    one = openDatabase(t.url, { poolSize: 1 });
    const { account } = await createAccount({ db: t.handle.db, clock: systemClock }, { name: 'Plans' });
    accountId = account.id;
    await seedAccount(t.handle, systemClock, { accountId, deals: 400, seed: 5 });
  });
  after(async () => {
    await one?.close();
    await t?.drop();
  });

  test('the first page of a common size gets a generic plan; pages and totals agree with a plain read', async () => {
    const won = await one.db
      .selectFrom('deals')
      .select(['id', 'updated_at'])
      .where('account_id', '=', accountId)
      .where('status', '=', 'won')
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    assert.ok(won.length > 50, `the seed made ${won.length} won deals`);
    const ids = won.map((d) => Number(d.id));
    const query = { status: 'won', sort: 'updated_at', direction: 'desc' } as const;
    for (let i = 0; i < 8; i++) {
      const first = await listDeals(one.db, accountId, query, { page: 1, per_page: 25 });
      assert.equal(first.pagination.total, ids.length);
      assert.deepEqual(
        first.data.map((d) => d.id),
        ids.slice(0, 25),
      );
    }
    const second = await listDeals(one.db, accountId, query, { page: 2, per_page: 25 });
    assert.deepEqual(
      second.data.map((d) => d.id),
      ids.slice(25, 50),
    );
    const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
      select statement, generic_plans, custom_plans from pg_prepared_statements where statement like '%list_counts%' and statement like '%"deals"%'`.execute(
      one.db,
    );
    // The first page and its total: one statement, read through the lateral subquery, with no offset.
    const firstPage = rows.filter((r) => /\blateral\b/i.test(r.statement) && !/\boffset\b/i.test(r.statement));
    assert.equal(firstPage.length, 1, JSON.stringify(rows));
    // PostgreSQL tries five custom plans, then keeps the generic one when it costs no more.
    assert.ok(Number(firstPage[0].generic_plans) >= 3, `first page: ${JSON.stringify(firstPage[0])}`);
  });
});
