import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe } from 'node:test';
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

/**
 * Registers `suites(engine)` for every engine, under `title`, the engines running at the same time
 * (the tests of one engine still run one after another). For files whose suites mostly wait on the
 * processes they start (servers, CLI commands, MCP clients) and share nothing between engines:
 * each engine has its own database, processes, ports and folders.
 */
export function onEachEngineAtOnce(title: string, suites: (engine: EngineName) => void): void {
  describe(title, { concurrency: true }, () => {
    for (const engine of engines()) describe(engine, { concurrency: 1 }, () => suites(engine));
  });
}

export interface TestDatabase {
  handle: DatabaseHandle;
  url: string;
  /** PostgreSQL: the schema of the file's own database that holds the tables ("public"). */
  schema?: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database per test file: an in-memory SQLite file, or, on PostgreSQL, a
 * database of its own on the test server, so files run in parallel without seeing each other.
 * `migrate: false` leaves it empty (no tables at all).
 *
 * PostgreSQL databases are copied from a template migrated once per set of migrations (named
 * by their hash; the first file to need it builds it under an advisory lock): a copy takes a
 * fraction of the time that running every migration in each file took.
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
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(base, async (admin) => {
    const template = migrate ? await migratedTemplate(base, admin) : 'template0';
    await admin.query(`create database ${name} template ${template}`);
  });
  const url = databaseUrl(base, name);
  const handle = openDatabase(url, { poolSize: 8 });
  return {
    handle,
    schema: 'public',
    url,
    async drop() {
      await handle.close();
      await withAdmin(base, (admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/** The URL of another database on the server of `base`. */
export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(base: string, fn: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

const migrationsDir = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
let templateName: Promise<string> | undefined;

/** The template database migrated to the current migrations, built once on the server if missing. */
function migratedTemplate(base: string, admin: pg.Client): Promise<string> {
  templateName ??= (async () => {
    const hash = createHash('sha256');
    for (const file of readdirSync(migrationsDir).sort()) hash.update(file).update(readFileSync(join(migrationsDir, file)));
    const name = `custops_tpl_${hash.digest('hex').slice(0, 16)}`;
    // Session-level, in the admin connection: every file that finds no template waits here for the first to build it.
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (rowCount === 0) {
        const building = `${name}_build`;
        await admin.query(`drop database if exists ${building} with (force)`);
        await admin.query(`create database ${building} template template0`);
        const handle = openDatabase(databaseUrl(base, building), { poolSize: 1 });
        try {
          await migrateToLatest(handle.db);
        } finally {
          await handle.close();
        }
        // Renamed only when complete, so a half-built template is never copied.
        await admin.query(`alter database ${building} rename to ${name}`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
    return name;
  })();
  return templateName;
}
