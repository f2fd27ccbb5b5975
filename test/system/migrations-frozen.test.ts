import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { migrations } from '../../src/db/migrate.ts';
import { createTestDatabase, engines, type EngineName } from '../helpers/engines.ts';

/**
 * Released migrations are frozen: what each one runs, up and down, on each engine, is pinned here as
 * a digest of its statements and parameters in order. Two migrations share dated modules
 * (`src/db/migrations/shared-*.ts`, docs/design.md#engines); an edit to one of those, or to a
 * migration, changes a digest and fails here. A change of schema is a new migration, with its digest
 * added below. Per migration: SQLite's up and down digests, then PostgreSQL's.
 */
const PINNED: Record<string, string> = {
  '2026-11-21T0000_initial': '56bc8d689e7ef952 6f63f49c239a3407 de86b0fd76c4b90e 6f63f49c239a3407',
  '2026-11-21T0120_deals': '335ef013fbb12bb7 b9c362cdbb8368a1 72d53f5735dfcda3 b9c362cdbb8368a1',
  '2026-11-21T0150_webhooks': '0e6c5a02397536cc b1703beca32bc5f1 0e6c5a02397536cc b1703beca32bc5f1',
  '2026-11-21T0160_analytics': 'c72b6fa3cc632643 dc27c174222dc39c 45b7f350287a4c67 d102b8c7d5309ebf',
  '2026-11-21T0170_funnel': 'a401908d9e9dc655 5fdf6194b991538e b7e3adb55f139074 38360ef137022b55',
  '2026-11-21T0180_idempotency_commit': 'e42eb573d5070bdb 64e717908b0e8d55 e42eb573d5070bdb 64e717908b0e8d55',
  '2026-11-24T2200_list_counts': '6b120a4ce13b6939 65edbda636df6f53 d36d288f97aded86 6fb4794711a113b9',
  '2026-11-24T2210_search_index': '4bace842e13f0add 99105e210da76539 a923e7c0f3e4be8c 27ac67c081c8acd8',
  '2026-11-24T2220_status_sort': '5814d0b8d8a46b6b 7eb594d595212aba 5814d0b8d8a46b6b dcf0d771c6fa4be6',
  '2026-11-24T2230_auth_changes': '0738a65e16fb043e 9915d1a45258fd56 72096d2d0d5b2205 9915d1a45258fd56',
  '2026-11-24T2300_console_sessions': '808665bc4f935d7b 2a6542a756b5a930 5f36b40aa23b31c5 2a6542a756b5a930',
  '2026-11-24T2310_settings': 'e062f03006efd639 d412b85559732d5c e062f03006efd639 d412b85559732d5c',
  '2026-11-25T0130_delivery_status_index': 'e8fb7514c9062171 42b7bb91d2265f7c e8fb7514c9062171 42b7bb91d2265f7c',
  '2026-11-25T0300_analytics_levels': '6e29fdf5cc1e9324 f790bc2adbc1c780 96f75b234b4de305 0a06d401f4105507',
  '2026-11-25T0310_analytics_kept': '05a510b2a3255863 d5d00c2a3052f3b8 399e8ad2eb2553b1 3f65a6563ab09448',
  '2026-11-25T0320_analytics_covering_key': 'e3b0c44298fc1c14 e3b0c44298fc1c14 818393ac58f94134 b2f3baca7630462c',
  '2026-11-25T0400_search_by_account': 'a6055c9fce2ed6fe d8368231998b91fa a72fa385f02d429f dd5c07e31d499065',
  '2026-11-27T1700_owner_status_index': '974330f93337579c a28bd869d5b2b05e 974330f93337579c a28bd869d5b2b05e',
  '2026-11-27T1900_rollups_at_commit': 'e3b0c44298fc1c14 e3b0c44298fc1c14 0d8a668caa77ede8 1e619168392c4d45',
  '2026-11-27T1910_last_activity_trigger': '4a2a1acf2813264f 9753b697bb6ed152 76a6dba6e8d468ac b342bb71d6db6147',
  '2026-11-28T0300_daily_rollup_moves': '9baae2c013b11a0a b3b024f8b271b869 c6c0ccad2f6b8b26 49a7eeedd18977c3',
  '2026-11-28T0310_counter_statements_postgres': 'e3b0c44298fc1c14 e3b0c44298fc1c14 a84f28f54ee547c6 f1dde1045036201c',
  '2026-11-28T0400_open_deal_activity': 'da36bdb64dd8aa7b d01481df787c5614 5176853df59e1be3 4a8e445379a23fae',
  '2026-11-28T1000_idempotency_request_bytes': 'd54c957d7e577d01 0a05a12ccf260070 d54c957d7e577d01 0a05a12ccf260070',
  '2026-11-28T1100_due_order_postgres': 'e3b0c44298fc1c14 e3b0c44298fc1c14 7219dbe7b03b1fea 7bc48ad3170b5a69',
  '2026-11-28T1900_open_pipeline': 'a013dfb4aab049b0 acda3dff54ae9604 8999c60263790250 7cdeb39bdf65b4bf',
};

/** Runs every migration up in order, then every one down in reverse, on an empty database, and digests each one's statements. */
async function digests(engine: EngineName): Promise<Record<string, { up: string; down: string }>> {
  const t = await createTestDatabase(engine, { migrate: false });
  try {
    let statements: string[] = [];
    const log = (event: { query: { sql: string; parameters: readonly unknown[] } }) => {
      statements.push(`${event.query.sql}\n${JSON.stringify(event.query.parameters)}`);
    };
    // A second Kysely on the same connection (SQLite) or pool (PostgreSQL) that records every statement; never destroyed here (t.drop closes the connection).
    const db = new Kysely<unknown>({
      dialect: t.handle.sqlite ? new SqliteDialect({ database: t.handle.sqlite }) : new PostgresDialect({ pool: t.handle.pool! }),
      log,
    });
    const digest = () => {
      const d = createHash('sha256').update(statements.join('\n;\n')).digest('hex').slice(0, 16);
      statements = [];
      return d;
    };
    const names = Object.keys(migrations).sort();
    const out: Record<string, { up: string; down: string }> = {};
    for (const name of names) {
      await migrations[name].up(db);
      out[name] = { up: digest(), down: '' };
    }
    for (const name of [...names].reverse()) {
      await migrations[name].down?.(db);
      out[name].down = digest();
    }
    return out;
  } finally {
    await t.drop();
  }
}

for (const engine of engines()) {
  describe(`released migrations are frozen [${engine}]`, () => {
    test('each migration runs exactly the statements pinned for it, up and down', async () => {
      const actual = await digests(engine);
      if (process.env.PRINT_MIGRATION_DIGESTS) writeFileSync(`${process.env.PRINT_MIGRATION_DIGESTS}.${engine}.json`, JSON.stringify(actual, null, 2));
      const at = engine === 'sqlite' ? 0 : 2;
      for (const [name, digests] of Object.entries(PINNED)) {
        assert.ok(actual[name], `${name} is pinned but no longer exists`);
        const [up, down] = digests.split(' ').slice(at, at + 2);
        assert.deepEqual(actual[name], { up, down }, `${name} runs other statements than when it was released on ${engine}: add a new migration instead`);
      }
      const unpinned = Object.keys(actual).filter((name) => !(name in PINNED));
      assert.deepEqual(unpinned, [], `pin each new migration's digests in this file once it is released`);
    });
  });
}
