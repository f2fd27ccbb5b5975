import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Db } from '../../src/db/database.ts';
import { seedDemo, type DemoResult } from '../../src/demo/seed.ts';
import { Random } from '../../src/demo/random.ts';
import { FixedClock } from '../../src/lib/clock.ts';
import { CONTENT_TABLES } from '../helpers/counts.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';
import { call, createHarness, type Harness } from '../helpers/harness.ts';

const NOW = Date.UTC(2026, 10, 21, 9, 30, 0);
const WINDOW_START = NOW - 120 * 86_400_000;
async function dump(db: Db, accountId: number) {
  const out: Record<string, unknown[]> = {};
  for (const t of CONTENT_TABLES) {
    const rows = (await db.selectFrom(t).selectAll().where('account_id', '=', accountId).execute()) as Record<string, unknown>[];
    // The console password is generated fresh on every run (a secret, not data): compared without it.
    out[t] = rows.map(({ account_id: _, password_hash: __, ...rest }) => rest).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
  }
  return out;
}

describe('demo PRNG', () => {
  test('is deterministic per seed and stays in range', () => {
    const a = new Random(42);
    const b = new Random(42);
    const seqA = Array.from({ length: 50 }, () => a.int(1, 6));
    assert.deepEqual(
      seqA,
      Array.from({ length: 50 }, () => b.int(1, 6)),
    );
    assert.ok(seqA.every((n) => n >= 1 && n <= 6));
    assert.notDeepEqual(
      seqA,
      Array.from(
        { length: 50 },
        (
          (r) => () =>
            r.int(1, 6)
        )(new Random(43)),
      ),
    );
    assert.equal(new Set(new Random(1).sample([1, 2, 3, 4, 5], 5)).size, 5);
  });
});

for (const engine of engines()) {
  describe(`custops demo data [${engine}]`, () => {
    let h: Harness;
    let second: TestDatabase;
    let demo: DemoResult;
    const clock = new FixedClock(NOW);
    before(async () => {
      h = await createHarness(engine, { clock });
      second = await createTestDatabase(engine);
      demo = await seedDemo({ db: h.db, clock, config: h.config }, { seed: 5 });
    });
    after(async () => {
      await h.close();
      await second.drop();
    });

    test('prints the account and a full-access key that works', async () => {
      assert.deepEqual(Object.keys(demo), ['account', 'key', 'console']);
      assert.equal(demo.account.name, 'Northwind Demo');
      assert.deepEqual({ ...demo.key, id: 0, secret: '' }, { id: 0, name: 'demo', scopes: ['*'], rate_limit_per_minute: null, secret: '' });
      assert.match(demo.key.secret, /^cok_/);
      const feed = await call(h, 'GET', '/api/v1/activity', { key: demo.key.secret, query: { per_page: 5 } });
      assert.equal(feed.statusCode, 200);
      assert.ok(feed.json().pagination.total > 50);
      assert.equal((await call(h, 'GET', '/api/v1/orgs', { key: demo.key.secret })).json().pagination.total, 12);
      // The printed console sign-in works as printed: the owner, with the generated password.
      const signIn = await call(h, 'POST', '/api/v1/session', { body: { email: demo.console.email, password: demo.console.password } });
      assert.equal(signIn.statusCode, 201);
      assert.equal(signIn.json().user.role, 'owner');
      assert.equal(signIn.json().account_id, demo.account.id);
    });

    test('team: every role, one inactive user, some support agents', async () => {
      const users = await h.db.selectFrom('users').selectAll().where('account_id', '=', demo.account.id).execute();
      assert.deepEqual([...new Set(users.map((u) => u.role))].sort(), ['admin', 'member', 'owner']);
      assert.equal(users.filter((u) => !u.is_active).length, 1);
      assert.ok(users.filter((u) => Boolean(u.support_enabled)).length >= 2);
      assert.ok(users.some((u) => !u.support_enabled));
    });

    test('orgs with external ids, contacts and marketing audiences', async () => {
      const acc = demo.account.id;
      const orgs = await h.db.selectFrom('orgs').select('id').where('account_id', '=', acc).execute();
      assert.equal(orgs.length, 12);
      const links = await h.db.selectFrom('org_external_ids').select(['org_id', 'source_app']).where('account_id', '=', acc).execute();
      assert.ok(orgs.every((o) => links.some((l) => l.org_id === o.id && l.source_app === 'billing')));
      const contacts = await h.db.selectFrom('contacts').select(['org_id', 'email']).where('account_id', '=', acc).execute();
      assert.ok(orgs.every((o) => contacts.filter((c) => c.org_id === o.id).length >= 2));
      assert.ok(
        contacts.every((c) => /^[a-z.]+@[a-z]+\.example$/.test(c.email!)),
        'ASCII e-mail addresses',
      );
      const members = await h.db.selectFrom('contact_audiences').select('audience_id').where('account_id', '=', acc).execute();
      assert.ok(new Set(members.map((m) => m.audience_id)).size >= 2);
    });

    test('deals in every status with consistent history, closing data and activities', async () => {
      const acc = demo.account.id;
      const deals = await h.db.selectFrom('deals').selectAll().where('account_id', '=', acc).execute();
      assert.deepEqual([...new Set(deals.map((d) => d.status))].sort(), ['lost', 'negotiation', 'new', 'proposal', 'qualified', 'won']);
      const history = await h.db.selectFrom('deal_status_history').selectAll().where('account_id', '=', acc).orderBy('id').execute();
      const activities = await h.db.selectFrom('deal_activities').selectAll().where('account_id', '=', acc).execute();
      assert.deepEqual([...new Set(activities.map((a) => a.event_type))].sort(), ['call', 'email', 'meeting', 'note']);
      for (const d of deals) {
        const closed = d.status === 'won' || d.status === 'lost';
        assert.ok(d.created_at >= WINDOW_START && d.created_at <= NOW && d.updated_at <= NOW);
        assert.equal(d.closed_at !== null, closed);
        assert.equal(d.closed_by_user_id !== null, closed);
        assert.equal(d.lost_reason_code !== null && d.lost_reason_label !== null, d.status === 'lost');
        const changes = history.filter((c) => c.deal_id === d.id);
        assert.deepEqual([changes[0].from_status, changes[0].to_status, changes[0].changed_at], [null, 'new', d.created_at]);
        assert.equal(changes.at(-1)!.to_status, d.status);
        changes.slice(1).forEach((c, i) => {
          assert.equal(c.from_status, changes[i].to_status);
        });
        assert.ok(changes.every((c, i) => i === 0 || c.changed_at >= changes[i - 1].changed_at));
        if (closed) assert.equal(d.closed_at, changes.at(-1)!.changed_at);
        const mine = activities.filter((a) => a.deal_id === d.id);
        assert.ok(mine.every((a) => a.org_id === d.org_id && a.created_at >= d.created_at && a.created_at <= (d.closed_at ?? NOW)));
        assert.equal(d.last_activity_at, Math.max(d.created_at, ...mine.map((a) => a.created_at)));
      }
      assert.ok(history.some((c) => c.from_status === 'negotiation' && c.to_status === 'won'));
    });

    test('tickets open, pending and closed, each with its log', async () => {
      const acc = demo.account.id;
      const tickets = await h.db.selectFrom('tickets').selectAll().where('account_id', '=', acc).execute();
      assert.deepEqual([...new Set(tickets.map((t) => t.status))].sort(), ['closed', 'open', 'pending']);
      const logs = await h.db.selectFrom('support_logs').selectAll().where('account_id', '=', acc).execute();
      for (const t of tickets) {
        assert.ok(t.created_at >= WINDOW_START && t.created_at <= NOW);
        assert.equal(t.closed_at !== null, t.status === 'closed');
        const mine = logs.filter((l) => l.ticket_id === t.id).sort((a, b) => a.created_at - b.created_at);
        assert.ok(mine.length >= 1);
        assert.deepEqual([mine[0].created_at, mine[0].note], [t.created_at, t.details]);
        assert.ok(mine.every((l) => l.org_id === t.org_id && l.created_at <= NOW));
      }
      assert.ok(
        tickets.some((t) => t.status !== 'closed' && t.created_at < NOW - 7 * 86_400_000),
        'some aged open tickets',
      );
    });

    test('the same seed gives the same data; another seed differs', async () => {
      const again = await seedDemo({ db: second.handle.db, clock, config: h.config }, { seed: 5 });
      assert.deepEqual(await dump(second.handle.db, again.account.id), await dump(h.db, demo.account.id));
      const other = await seedDemo({ db: second.handle.db, clock, config: h.config }, { seed: 6 });
      const a = await dump(second.handle.db, other.account.id);
      const b = await dump(h.db, demo.account.id);
      assert.notDeepEqual(
        a.deals.map((d: any) => [d.title, d.status]),
        b.deals.map((d: any) => [d.title, d.status]),
      );
    });
  });
}
