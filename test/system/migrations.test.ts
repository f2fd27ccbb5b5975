import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { migrations, migrateToLatest } from '../../src/db/migrate.ts';
import { tableCounts } from '../helpers/counts.ts';
import { createTestDatabase, engines } from '../helpers/engines.ts';

for (const engine of engines()) {
  describe(`migrations [${engine}]`, () => {
    test('run from empty, are idempotent, and roll back to empty', async () => {
      const t = await createTestDatabase(engine);
      try {
        const db = t.handle.db;
        // createTestDatabase migrated once; every table of the data model exists and is empty.
        const counts = await tableCounts(db);
        assert.ok(Object.values(counts).every((n) => n === 0));
        const again = await migrateToLatest(db, t.schema);
        assert.deepEqual(again.results, [], 'a second run applies nothing');

        const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, ...(t.schema ? { migrationTableSchema: t.schema } : {}) });
        const names = Object.keys(migrations).sort();
        for (let i = names.length - 1; i >= 0; i--) {
          const r = await migrator.migrateDown();
          assert.equal(r.error, undefined);
        }
        // On PostgreSQL only this file's schema is read: a whole-database introspection races with other files dropping theirs.
        const tables = t.schema
          ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${t.schema}`.execute(db)).rows.map(
              (x) => x.name,
            )
          : (await db.introspection.getTables()).map((x) => x.name);
        const left = tables.filter((n) => !n.startsWith('kysely_'));
        assert.deepEqual(left, [], 'down leaves no table');
        const up = await migrateToLatest(db, t.schema);
        assert.deepEqual(
          up.results?.map((r) => r.status),
          names.map(() => 'Success'),
        );
        assert.ok(Object.values(await tableCounts(db)).every((n) => n === 0));
      } finally {
        await t.drop();
      }
    });
  });
}
