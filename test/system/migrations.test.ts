import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Migrator } from 'kysely';
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
        const tables = (await db.introspection.getTables()).filter((x) => !t.schema || x.schema === t.schema).map((x) => x.name).filter((n) => !n.startsWith('kysely_'));
        assert.deepEqual(tables, [], 'down leaves no table');
        const up = await migrateToLatest(db, t.schema);
        assert.deepEqual(up.results?.map((r) => r.status), names.map(() => 'Success'));
        assert.ok(Object.values(await tableCounts(db)).every((n) => n === 0));
      } finally {
        await t.drop();
      }
    });
  });
}
