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
 * fraction of the time that running every migration in each file took. A copy is then kept on
 * the server and reused by later files (see pooledDatabase): emptied, and checked to be the
 * template's again, it costs far less than a new copy (most of a copy is the system catalogs).
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
  if (migrate) return pooledDatabase(base);
  const name = `t_${randomBytes(6).toString('hex')}`;
  await withAdmin(base, (admin) => admin.query(`create database ${name} template template0`));
  return onPostgres(base, name, () => withAdmin(base, (admin) => admin.query(`drop database if exists ${name} with (force)`)));
}

/** The file's database `name` on the server of `base`, opened; `release` runs after its connections are closed. */
function onPostgres(base: string, name: string, release: () => Promise<unknown>): TestDatabase {
  const url = databaseUrl(base, name);
  const handle = openDatabase(url, { poolSize: 8 });
  return {
    handle,
    schema: 'public',
    url,
    async drop() {
      await handle.close();
      await release();
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

/**
 * A migrated PostgreSQL database of the pool kept beside the template (`<template>_p<hex>`): one
 * no other process holds (a session advisory lock on its name, held by an admin connection of
 * this process until `drop()`), else a new copy of the template. A database taken from the pool
 * is first made the template's again: connections left on it are ended, every table the template
 * has empty is emptied, its sequences restarted, and its schema, sequences, planner
 * statistics and the rows of the tables the template fills are compared with the template's (the
 * fingerprint recorded on the template from a fresh copy); a database that differs (a test added a
 * trigger, a function, a column…) is dropped and a new copy made. Holding the lock from the start
 * and cleaning when taken (not when given back) keeps a file that crashed from passing its data on.
 */
async function pooledDatabase(base: string): Promise<TestDatabase> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  let name: string;
  try {
    name = await takeFromPool(base, admin);
  } catch (err) {
    await admin.end();
    throw err;
  }
  return onPostgres(base, name, async () => {
    // Nothing this file started (a server, a worker) may write into the database once it is back
    // in the pool: no new connections until it is taken again, and those left are ended.
    await admin.query(`alter database ${name} allow_connections false`).catch(() => undefined);
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]).catch(() => undefined);
    // Ending the session releases the database's lock: it goes back to the pool as it is.
    await admin.end();
  });
}

async function takeFromPool(base: string, admin: pg.Client): Promise<string> {
  const template = await migratedTemplate(base, admin);
  const prefix = `${template}_p`;
  const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where left(datname, $1) = $2 order by random()', [
    prefix.length,
    prefix,
  ]);
  for (const { datname } of rows) {
    const { rows: got } = await admin.query<{ ok: boolean }>('select pg_try_advisory_lock(hashtext($1)) as ok', [datname]);
    if (!got[0].ok) continue;
    // Dropped by its last holder (found different) between the listing and the lock?
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [datname]);
    if (rowCount === 1) await admin.query(`alter database ${datname} allow_connections true`).catch(() => undefined);
    if (rowCount === 1 && (await restore(base, admin, template, datname).catch(() => false))) return datname;
    await admin.query(`drop database if exists ${datname} with (force)`);
    await admin.query('select pg_advisory_unlock(hashtext($1))', [datname]);
  }
  const name = `${prefix}${randomBytes(6).toString('hex')}`;
  await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
  await admin.query(`create database ${name} template ${template}`);
  const recorded = await admin.query<{ fingerprint: string | null }>(
    "select shobj_description(oid, 'pg_database') as fingerprint from pg_database where datname = $1",
    [template],
  );
  if (!recorded.rows[0]?.fingerprint) {
    // Not allowed to (not the owner)? Then no database is reused, each file gets a new copy as before.
    await withDatabase(base, name, fingerprintOf)
      .then((fingerprint) => admin.query(`comment on database ${template} is '${fingerprint}'`))
      .catch(() => undefined);
  }
  return name;
}

/** Makes the pooled database `name` the template's again; false when it cannot be (it is then dropped). */
async function restore(base: string, admin: pg.Client, template: string, name: string): Promise<boolean> {
  const { rows } = await admin.query<{ fingerprint: string | null }>(
    "select shobj_description(oid, 'pg_database') as fingerprint from pg_database where datname = $1",
    [template],
  );
  const expected = rows[0]?.fingerprint;
  if (!expected) return false;
  // Connections a file's processes left behind (the database was dropped with them before it was pooled).
  await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
  return withDatabase(base, name, async (db): Promise<boolean> => {
    const empty = JSON.parse(expected).empty as string[];
    // Deleting (foreign keys and triggers off, as in a restore) costs a fraction of a TRUNCATE, which
    // makes new files for every table and index; the sequences start again where a fresh copy's do.
    await db.query(`begin; set local session_replication_role = replica; ${empty.map((t) => `delete from public.${t};`).join(' ')} commit`);
    await db.query(
      "select setval(c.oid::regclass, 1, false) from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'S'",
    );
    // The planner's statistics of the rows a test wrote: a fresh copy has none.
    await db.query(
      "delete from pg_statistic where starelid in (select c.oid from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public')",
    );
    return (await fingerprintOf(db)) === expected;
  });
}

async function withDatabase<T>(base: string, name: string, fn: (db: pg.Client) => Promise<T>): Promise<T> {
  return withAdmin(databaseUrl(base, name), fn);
}

/**
 * What a database must share with a fresh copy of the template to be used as one: its schema
 * (tables, columns, constraints, indexes, triggers, functions, types, extensions, privileges,
 * settings), its sequences' states, its planner statistics, which tables are empty and the rows
 * of the others. JSON: `empty` (the tables a fresh copy has empty, which a reuse empties) and a digest.
 */
async function fingerprintOf(db: pg.Client): Promise<string> {
  const NS = "not in ('pg_catalog', 'information_schema', 'pg_toast') and n.nspname not like 'pg_temp%' and n.nspname not like 'pg_toast_temp%'";
  const { rows: schema } = await db.query<{ line: string }>(`
    select 'class ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' || c.relpersistence::text || ' ' || c.relrowsecurity::text || ' ' || coalesce(c.relacl::text, '') || ' ' || coalesce(c.reloptions::text, '')
      || ' ' || coalesce(pg_get_indexdef(c.oid), '') || ' ' || coalesce(case when c.relkind in ('v', 'm') then pg_get_viewdef(c.oid) end, '') || ' ' || pg_get_userbyid(c.relowner) as line
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname ${NS}
    union all
    select 'column ' || c.oid::regclass::text || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text || ' ' || a.attidentity::text || a.attgenerated::text
      || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), '') || ' ' || coalesce(a.attacl::text, '')
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname ${NS} and a.attnum > 0 and not a.attisdropped
    union all
    select 'constraint ' || n.nspname || '.' || co.conname || ' ' || co.conrelid::regclass::text || ' ' || pg_get_constraintdef(co.oid)
      from pg_constraint co join pg_namespace n on n.oid = co.connamespace where n.nspname ${NS}
    union all
    select 'trigger ' || t.tgrelid::regclass::text || '.' || t.tgname || ' ' || t.tgenabled::text || ' ' || pg_get_triggerdef(t.oid) from pg_trigger t where not t.tgisinternal
    union all
    select 'function ' || p.oid::regprocedure::text || ' ' || md5(coalesce(p.prosrc, '')) || ' ' || coalesce(p.proacl::text, '') || ' ' || coalesce(p.proconfig::text, '')
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname ${NS}
    union all
    select 'namespace ' || n.nspname || ' ' || coalesce(n.nspacl::text, '') || ' ' || pg_get_userbyid(n.nspowner) from pg_namespace n where n.nspname ${NS}
    union all
    select 'type ' || t.oid::regtype::text || ' ' || t.typtype::text from pg_type t join pg_namespace n on n.oid = t.typnamespace where n.nspname ${NS} and t.typrelid = 0
    union all
    select 'enum ' || e.enumtypid::regtype::text || ' ' || e.enumlabel || ' ' || e.enumsortorder::text from pg_enum e
    union all
    select 'extension ' || x.extname || ' ' || x.extversion from pg_extension x
    union all
    select 'policy ' || p.polrelid::regclass::text || '.' || p.polname from pg_policy p
    union all
    select 'rule ' || r.ev_class::regclass::text || '.' || r.rulename from pg_rewrite r join pg_class c on c.oid = r.ev_class join pg_namespace n on n.oid = c.relnamespace where n.nspname ${NS} and r.rulename <> '_RETURN'
    union all
    select 'setting ' || coalesce(s.setrole::text, '') || ' ' || array_to_string(s.setconfig, ',') from pg_db_role_setting s where s.setdatabase = (select oid from pg_database where datname = current_database())
    union all
    select 'statistics ' || s.starelid::regclass::text || ' ' || s.staattnum::text from pg_statistic s join pg_class c on c.oid = s.starelid join pg_namespace n on n.oid = c.relnamespace where n.nspname ${NS}
    union all
    select 'publication ' || pubname from pg_publication
    union all
    select 'default acl ' || d.defaclobjtype::text || ' ' || d.defaclacl::text from pg_default_acl d
  `);
  const { rows: tables } = await db.query<{ name: string }>(
    "select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1",
  );
  const { rows: sequences } = await db.query<{ name: string }>(
    "select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'S' order by 1",
  );
  const lines = schema.map((r) => r.line).sort();
  const contents = [
    ...tables.map(
      (t) =>
        `select 'rows ${t.name} ' || count(*) || ' ' || coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as line, count(*) = 0 as empty, '${t.name}' as name from public.${t.name} t`,
    ),
    ...sequences.map((q) => `select 'sequence ${q.name} ' || last_value || ' ' || is_called, false, '${q.name}' from public.${q.name}`),
  ];
  const { rows: content } = await db.query<{ line: string; empty: boolean; name: string }>(contents.join(' union all '));
  const empty = content.filter((r) => r.empty).map((r) => r.name);
  lines.push(...content.map((r) => r.line));
  return JSON.stringify({ empty, digest: createHash('sha256').update(lines.join('\n')).digest('hex') });
}
