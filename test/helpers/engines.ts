import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../../src/db/database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';

export type EngineName = 'sqlite' | 'postgres';

/**
 * The engines every suite runs on: SQLite always; PostgreSQL when TEST_POSTGRES_URL is set
 * (CI sets it). A suite loops over this list, so the same assertions hold on both.
 */
export function engines(): EngineName[] {
  return process.env.TEST_POSTGRES_URL ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  handle: DatabaseHandle;
  url: string;
  /** PostgreSQL: the schema this test file owns (dropped at the end). */
  schema?: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database per test file: an in-memory SQLite file, or a PostgreSQL schema
 * of its own in the shared test database, so files run in parallel without seeing each other.
 * `migrate: false` leaves it empty (no tables at all).
 */
export async function createTestDatabase(engine: EngineName, options: { sqlitePath?: string; migrate?: boolean } = {}): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (engine === 'sqlite') {
    const url = `sqlite:${options.sqlitePath ?? ':memory:'}`;
    const handle = openDatabase(url);
    if (migrate) await migrateToLatest(handle.db);
    return { handle, url, drop: () => handle.close() };
  }
  const base = process.env.TEST_POSTGRES_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const handle = openDatabase(base, { schema, poolSize: 8 });
  if (migrate) await migrateToLatest(handle.db, schema);
  const sep = base.includes('?') ? '&' : '?';
  return {
    handle,
    schema,
    url: `${base}${sep}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    async drop() {
      await handle.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    },
  };
}
