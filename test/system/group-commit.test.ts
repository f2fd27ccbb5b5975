import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { DatabaseUnavailable } from '../../src/db/errors.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { FixedClock } from '../../src/lib/clock.ts';
import { AppError } from '../../src/lib/errors.ts';
import { createWrite, type Write } from '../../src/lib/write.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';

// SQLite's write path: the writes waiting for the one connection share a commit, each in a savepoint
// of its own (src/lib/group-commit.ts, docs/design.md#the-write-path). Checked on a database file
// that a second connection, as another process would, reads: a write is answered only once that
// connection sees it, a failed write leaves nothing, and a lost transaction fails every write in it.
describe('group commit on SQLite', () => {
  let dir: string;
  let path: string;
  let handle: DatabaseHandle;
  let other: DatabaseSync;
  let write: Write;
  let accountId: number;
  let commits = 0;
  const clock = new FixedClock('2026-11-28T12:00:00.000Z');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'custops-group-commit-'));
    path = join(dir, 'db.sqlite');
    handle = openDatabase(`sqlite:${path}`, { sqliteBusyTimeoutMs: 200 });
    await migrateToLatest(handle.db);
    ({
      account: { id: accountId },
    } = await createAccount({ db: handle.db, clock }, { name: 'Group commit' }));
    write = createWrite({ db: handle.db, clock, wakeDispatcher: () => {} });
    other = new DatabaseSync(path);
    // Every COMMIT Kysely sends goes through the connection's statement wrapper.
    const sqlite = handle.sqlite!;
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = (text: string) => {
      if (/^\s*commit\s*$/i.test(text)) commits++;
      return prepare(text);
    };
  });
  after(async () => {
    other.close();
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** An org written by a write, by name; what the other connection sees of it. */
  const addOrg = (name: string) =>
    write(null, async ({ trx, now }) => {
      await trx
        .insertInto('orgs')
        .values({ account_id: accountId, name, name_lc: name.toLowerCase(), domain: null, created_at: now, updated_at: now })
        .execute();
      return name;
    });
  const seen = (name: string) => Number(other.prepare('select count(*) as n from orgs where account_id = ? and name = ?').get(accountId, name)!.n);

  test('writes started together share a commit; each is answered once committed; one that fails rolls back alone', async () => {
    const before = commits;
    const answered: string[] = [];
    const writes = Array.from({ length: 12 }, (_, i) =>
      i === 4
        ? write(null, async ({ trx, now }) => {
            await trx
              .insertInto('orgs')
              .values({ account_id: accountId, name: 'failing', name_lc: 'failing', domain: null, created_at: now, updated_at: now })
              .execute();
            throw new AppError('not_found', 'Refused after its insert.');
          })
        : addOrg(`together ${i}`).then((name) => {
            // Answered: already visible to another connection.
            assert.equal(seen(name), 1, name);
            answered.push(name);
            return name;
          }),
    );
    const results = await Promise.allSettled(writes);
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 11);
    const refused = results[4];
    assert.ok(refused.status === 'rejected' && refused.reason instanceof AppError && refused.reason.code === 'not_found');
    assert.equal(seen('failing'), 0);
    assert.equal(answered.length, 11);
    // Eleven committed writes in a commit (at most 16 a group; four allowed should the turn before
    // the group end before every write was started), not one each.
    assert.ok(commits - before >= 1 && commits - before <= 4, `${commits - before} commits`);
  });

  test('a write that loses the transaction fails the writes that shared it, and none of them remains; the next ones go on', async () => {
    const raw = handle.sqlite!.raw;
    const lost = new Error('the transaction was rolled back under it');
    const first = addOrg('lost first');
    const losing = write(null, async ({ trx, now }) => {
      await trx
        .insertInto('orgs')
        .values({ account_id: accountId, name: 'lost losing', name_lc: 'lost losing', domain: null, created_at: now, updated_at: now })
        .execute();
      // As SQLite does by itself on a full disk or an I/O error.
      raw.exec('ROLLBACK');
      throw lost;
    });
    const [a, b] = await Promise.allSettled([first, losing]);
    assert.ok(a.status === 'rejected' && b.status === 'rejected');
    assert.equal(seen('lost first'), 0);
    assert.equal(seen('lost losing'), 0);
    assert.equal(await addOrg('after the loss'), 'after the loss');
    assert.equal(seen('after the loss'), 1);
  });

  test('another process holding the write lock past the busy time-out: every waiting write fails as unavailable, none hangs, none is half-written', async () => {
    other.exec('BEGIN IMMEDIATE');
    try {
      const results = await Promise.allSettled([addOrg('busy 1'), addOrg('busy 2'), addOrg('busy 3')]);
      for (const r of results) assert.ok(r.status === 'rejected' && r.reason instanceof DatabaseUnavailable && r.reason.reason === 'database_busy', String(r));
    } finally {
      other.exec('ROLLBACK');
    }
    assert.equal(seen('busy 1') + seen('busy 2') + seen('busy 3'), 0);
    assert.equal(await addOrg('after the lock'), 'after the lock');
  });
});
