import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { countRows } from '../../src/lib/sql.ts';

describe('SQLite count cache stays exact', () => {
  let a: DatabaseHandle;
  let b: DatabaseHandle;
  const countAccounts = (h: DatabaseHandle) => countRows(h.db, h.db.selectFrom('accounts').where('name', 'like', 'acct%'));
  const add = (h: DatabaseHandle, name: string) => h.db.insertInto('accounts').values({ name, created_at: 0 }).execute();

  before(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'custops-count-')), 'c.db');
    a = openDatabase(`sqlite:${file}`);
    await migrateToLatest(a.db);
    b = openDatabase(`sqlite:${file}`);
  });
  after(async () => {
    await a.close();
    await b.close();
  });

  test('a repeated count is answered from the cache while nothing changed', async () => {
    await add(a, 'acct-1');
    assert.equal(await countAccounts(a), 1);
    // Change the table behind the cache's back (raw connection, bypassing the statement adapter):
    // the cached answer is still returned, proving the second count did not run.
    a.sqlite!.raw.exec(`insert into accounts (name, created_at) values ('acct-hidden', 0)`);
    assert.equal(await countAccounts(a), 1);
    a.sqlite!.raw.exec(`delete from accounts where name = 'acct-hidden'`);
  });

  test('a write through this connection invalidates it', async () => {
    const before = await countAccounts(a);
    await add(a, 'acct-2');
    assert.equal(await countAccounts(a), before + 1);
  });

  test('a commit by another connection (another process) invalidates it', async () => {
    const before = await countAccounts(a);
    await add(b, 'acct-3');
    assert.equal(await countAccounts(a), before + 1);
  });

  test('a rolled-back transaction leaves no stale count, and counts inside transactions are never cached', async () => {
    const before = await countAccounts(a);
    await assert.rejects(
      a.db.transaction().execute(async (trx) => {
        await trx.insertInto('accounts').values({ name: 'acct-rolled-back', created_at: 0 }).execute();
        assert.equal(await countRows(trx, trx.selectFrom('accounts').where('name', 'like', 'acct%')), before + 1);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.equal(await countAccounts(a), before);
  });
});
