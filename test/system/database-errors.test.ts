import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { ConstraintViolation, TransientDatabaseError, type ConstraintKind } from '../../src/db/errors.ts';
import { FixedClock } from '../../src/lib/clock.ts';
import { AppError } from '../../src/lib/errors.ts';
import { createWrite } from '../../src/lib/write.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { createAudience } from '../../src/modules/contacts/audiences.service.ts';
import { createUser } from '../../src/modules/users/users.service.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

// Every translation of src/db/errors.ts, raised by the real engine through the application's own
// Kysely instance (so through the translating driver), on both engines.
for (const engine of engines()) {
  describe(`database errors are translated by code [${engine}]`, () => {
    let t: TestDatabase;
    /** A second, empty database: services' pre-checks read it and find nothing, so the write itself meets the constraint. */
    let empty: TestDatabase;
    let accountId: number;
    const clock = new FixedClock('2026-11-24T12:00:00Z');
    before(async () => {
      t = await createTestDatabase(engine);
      empty = await createTestDatabase(engine);
      ({ account: { id: accountId } } = await createAccount({ db: t.handle.db, clock }, { name: 'Errors' }));
    });
    after(async () => {
      await t.drop();
      await empty.drop();
    });

    const rejects = async (kind: ConstraintKind, statement: () => Promise<unknown>) => {
      await assert.rejects(statement, (err: unknown) => {
        assert.ok(err instanceof ConstraintViolation, `a ConstraintViolation, got ${String(err)}`);
        assert.equal(err.kind, kind);
        assert.ok(err.cause, 'the driver error is kept as the cause');
        return true;
      });
    };
    const org = (name: string) => ({ account_id: accountId, name, name_lc: name.toLowerCase(), domain: null, created_at: 1, updated_at: 1 });

    test('unique', async () => {
      const row = { account_id: accountId, name: 'Same', created_at: 1 };
      await t.handle.db.insertInto('marketing_audiences').values(row).execute();
      await rejects('unique', () => t.handle.db.insertInto('marketing_audiences').values(row).execute());
    });

    test('primary key (a unique key too)', async () => {
      const { id } = await t.handle.db.insertInto('orgs').values(org('Pk')).returning('id').executeTakeFirstOrThrow();
      await rejects('unique', () => t.handle.db.insertInto('orgs').values({ ...org('Pk again'), id }).execute());
    });

    test('foreign key', async () => {
      await rejects('foreign_key', () => t.handle.db.insertInto('contacts').values({
        account_id: accountId, org_id: 987_654_321, name: null, name_lc: null, email: null, email_lc: null, phone: null, title: null, created_at: 1, updated_at: 1,
      }).execute());
    });

    test('not null', async () => {
      await rejects('not_null', () => t.handle.db.insertInto('orgs').values({ ...org('No name'), name: null as unknown as string }).execute());
    });

    test('check', async () => {
      await rejects('check', () => sql`insert into users (account_id, email, email_lc, display_name, role, is_active, support_enabled, created_at, updated_at)
        values (${accountId}, 'x@example.com', 'x@example.com', 'X', 'emperor', ${true}, ${false}, 1, 1)`.execute(t.handle.db));
    });

    test('inside a transaction, and at its commit, errors are translated too', async () => {
      await rejects('unique', () => t.handle.db.transaction().execute(async (trx) => {
        await trx.insertInto('marketing_audiences').values({ account_id: accountId, name: 'In trx', created_at: 1 }).execute();
        await trx.insertInto('marketing_audiences').values({ account_id: accountId, name: 'In trx', created_at: 1 }).execute();
      }));
    });

    test('other errors pass through untouched', async () => {
      await assert.rejects(() => sql`select * from no_such_table`.execute(t.handle.db), (err: unknown) => {
        assert.ok(!(err instanceof ConstraintViolation) && !(err instanceof TransientDatabaseError));
        return true;
      });
    });

    test('services turn a unique violation that slipped past their pre-check into 409 conflict', async () => {
      const write = createWrite({ db: t.handle.db, clock, wakeDispatcher: () => {} });
      await createAudience({ db: t.handle.db, write }, accountId, 'Raced');
      // The pre-check reads the empty database (as a concurrent request would, before the other commit).
      await assert.rejects(() => createAudience({ db: empty.handle.db, write }, accountId, 'Raced'), (err: unknown) => err instanceof AppError && err.code === 'conflict');
      const user = { email: 'raced@example.com', display_name: 'Raced' };
      await createUser({ db: t.handle.db, write }, accountId, user);
      await assert.rejects(() => createUser({ db: empty.handle.db, write }, accountId, user), (err: unknown) => err instanceof AppError && err.code === 'conflict');
    });
  });
}
