import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type pg from 'pg';
import type { DatabaseHandle } from '../db/database.ts';
import { OPEN_STATUSES } from '../modules/deals/deals.schemas.ts';
import { SHAPES, type Row, type SeedTable, type TableShape } from './tables.ts';

/**
 * Bulk writes for the seed, one implementation per engine. Both write whole batches in one
 * transaction; `direct` says whether the tables' own triggers (the analytics rollups and the
 * list counts) are bypassed inside it, in which case the seed applies the same changes itself
 * (see tally.ts) in that same transaction, so the rollups stay exact at every commit (the lost
 * reasons by month excepted: seed.ts rebuilds them at the end).
 */
export interface BulkWriter {
  readonly direct: boolean;
  transaction<T>(fn: () => Promise<T>): Promise<T>;
  /**
   * Takes `counts[table]` new ids from each table's sequence, ascending, or null where ids are only
   * known once inserted (SQLite). Called in batch order, so batches written side by side get the ids
   * a one-at-a-time seed would have given them.
   */
  reserveIds(counts: Partial<Record<SeedTable, number>>): Promise<Partial<Record<SeedTable, number[]>> | null>;
  /** Inserts the rows (with `ids`, under those ids); with `returning`, answers their new ids in row order. */
  insert(table: SeedTable, rows: Row[], returning?: boolean, ids?: number[]): Promise<number[]>;
  /** Adds `n` to counter rows keyed by their other columns (insert, or add on conflict). */
  addCounts(table: 'analytics_daily' | 'list_counts', key: readonly string[], rows: Row[]): Promise<void>;
  close(): Promise<void>;
}

/** The triggers the seed reproduces (tally.ts; a deal's last_activity_at is drawn with its timeline), by name. */
const REPRODUCED = /^(analytics_|list_counts_|open_pipeline_|activities_touch_deal_ai$)/;
/** SQLite: the search index's insert triggers (`<table>_trigrams_ai`), which the seed replays once per insert instead of once per row. */
const SEARCH_INSERT = /^\w+_trigrams_ai$/;

/** A search index insert trigger's statements, run once over a range of new rows' ids. */
interface Replay {
  /** Counts the rows the trigger would refuse (its `raise(abort, …)` condition), or null. */
  check: string | null;
  message: string;
  insert: string;
}

/**
 * The statements of an insert trigger of the shape the search index migration writes (an optional
 * `select raise(abort, '…') where …;` then one `insert into … values (…);`, over `new.` columns),
 * rewritten to run over the rows of `table` with ids from `?1` to `?2` in id order; null for any other
 * shape (that trigger then keeps running per row).
 */
function replayOf(table: string, sql: string): Replay | null {
  const body = /\bbegin\s+([\s\S]*?)\s*end\s*$/i.exec(sql)?.[1];
  if (!body) return null;
  const rows = `from ${table} as new where new.id >= ?1 and new.id <= ?2`;
  let check: string | null = null;
  let message = '';
  let insert: string | null = null;
  for (const statement of body
    .split(';')
    .map((x) => x.trim())
    .filter((x) => x !== '')) {
    const raise = /^select raise\(abort, '([^']*)'\) where ([\s\S]+)$/i.exec(statement);
    const values = /^insert into (\w+) \(([^()]*)\) values \(([\s\S]+)\)$/i.exec(statement);
    if (raise && check === null) {
      message = raise[1];
      check = `select count(*) as n ${rows} and (${raise[2]})`;
    } else if (values && insert === null) insert = `insert into ${values[1]} (${values[2]}) select ${values[3]} ${rows} order by new.id`;
    else return null;
  }
  return insert === null ? null : { check, message, insert };
}
/** The open statuses as an SQL list. */
const OPEN_LIST = OPEN_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * The open pipeline (migration 2026-11-28T1900) of the new deals `where` chooses, which the seed's
 * bypassed triggers would have kept: added per account, status and currency to the `shard` rows, in
 * key order. On PostgreSQL the shard is the transaction's, as the triggers', so two batches written
 * side by side mostly add to different rows (one of 16), and otherwise wait for each other, never
 * deadlock; the lock is held from the deals' insert to the batch's commit.
 */
const openPipelineOf = (where: string, shard: string) => `insert into open_pipeline (account_id, status, currency, shard, n, valued, cents)
  select account_id, status, coalesce(currency, ''), ${shard}, count(*), count(value_cents), coalesce(sum(value_cents), 0) from deals
  where ${where} and status in (${OPEN_LIST}) group by account_id, status, coalesce(currency, '') order by 1, 2, 3
  on conflict (account_id, status, currency, shard) do update set
    n = open_pipeline.n + excluded.n, valued = open_pipeline.valued + excluded.valued, cents = open_pipeline.cents + excluded.cents`;
/** Tables whose triggers the seed bypasses (and reproduces) in direct mode. */
const TRIGGER_TABLES: SeedTable[] = ['deals', 'deal_status_history', 'deal_activities', 'tickets', 'support_logs', 'orgs', 'contacts'];

export async function openWriter(handle: DatabaseHandle, mode: 'direct' | 'triggers'): Promise<BulkWriter> {
  if (handle.dialect === 'postgres') {
    const client = await handle.pool!.connect();
    try {
      return await postgresWriter(client, mode);
    } catch (err) {
      // Its set-up failed: the connection goes back to the pool (discarded), or closing the pool would wait for it.
      client.release(err as Error);
      throw err;
    }
  }
  return sqliteWriter(handle.sqlite!.raw, mode);
}

// --- PostgreSQL: one typed array per column, so a batch is one statement however large.

/** An element of a PostgreSQL array literal: text always quoted (backslash and double quote escaped). */
const element = (v: Row[number]) =>
  v === null ? 'NULL' : typeof v === 'string' ? `"${/["\\]/.test(v) ? v.replace(/["\\]/g, '\\$&') : v}"` : typeof v === 'boolean' ? (v ? 't' : 'f') : String(v);

/**
 * Column `c` of the rows as one array literal (`{1,NULL,"text"}`), sent as a text parameter and cast
 * by the statement (`$1::bigint[]`): what node-postgres would make of a JavaScript array, in a fraction
 * of its time (it inspects and converts every element through its generic value preparation).
 */
function arrayLiteral(rows: Row[], c: number): string {
  const parts: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) parts[i] = element(rows[i][c]);
  return `{${parts.join(',')}}`;
}

async function postgresWriter(client: pg.PoolClient, mode: 'direct' | 'triggers'): Promise<BulkWriter> {
  // Bypassing triggers needs session_replication_role, which only a superuser may set; otherwise the triggers run.
  const superuser = (await client.query<{ s: string }>(`select current_setting('is_superuser') as s`)).rows[0].s === 'on';
  const direct = mode === 'direct' && superuser;
  const columnsOf = (shape: TableShape) => shape.columns.map(([name]) => name).join(', ');
  const arrays = (shape: TableShape) => shape.columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  const transpose = (width: number, rows: Row[]) => {
    if (rows.some((r) => r.length !== width)) throw new Error('seed: row width does not match its table');
    return Array.from({ length: width }, (_, c) => arrayLiteral(rows, c));
  };
  /** Each table's id sequence (the connection's search_path finds the table). */
  const sequences: Partial<Record<SeedTable, string>> = {};
  return {
    direct,
    async transaction(fn) {
      await client.query('begin');
      try {
        // Replica mode skips user triggers and foreign-key checks for this transaction only: the rows are
        // generated consistent, and the rollups the triggers would write are written by the seed itself.
        if (direct) await client.query('set local session_replication_role = replica');
        // A large pending list lets trigram (GIN) inserts append instead of merging into the index on every
        // few thousand rows; the VACUUM at the end of the seed merges it once. A batch's commit need not wait
        // for its WAL flush: a crash loses at most the last batches, each whole or absent.
        await client.query(`set local gin_pending_list_limit = '64MB'; set local synchronous_commit = off`);
        const result = await fn();
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      }
    },
    async reserveIds(counts) {
      const tables = (Object.keys(counts) as SeedTable[]).filter((t) => (counts[t] ?? 0) > 0);
      if (tables.length === 0) return {};
      for (const t of tables) sequences[t] ??= (await client.query<{ s: string }>(`select pg_get_serial_sequence($1, 'id') as s`, [t])).rows[0].s;
      const literal = (t: SeedTable) => `'${sequences[t]!.replaceAll("'", "''")}'`;
      const { rows } = await client.query<Record<string, string[] | number[]>>(
        `select ${tables
          .map((t, i) => `(select array_agg(v order by v) from (select nextval(${literal(t)}) as v from generate_series(1, $${i + 1}::int)) s) as ${t}`)
          .join(', ')}`,
        tables.map((t) => counts[t]),
      );
      return Object.fromEntries(tables.map((t) => [t, rows[0][t].map(Number)]));
    },
    async insert(table, rows, returning = false, ids) {
      if (rows.length === 0) return [];
      const shape = SHAPES[table];
      const withId: TableShape = ids ? { table, columns: [['id', 'bigint'], ...shape.columns] } : shape;
      // The open deals' last activity (migration 2026-11-28T0400) and the open pipeline (2026-11-28T1900)
      // are kept by triggers on deals, which replica mode skips: written here for the new deals, in the
      // same transaction.
      const keepOpen = direct && table === 'deals';
      const text = `insert into ${table} (${columnsOf(withId)}) select * from unnest(${arrays(withId)})${returning || keepOpen ? ' returning id' : ''}`;
      const params = transpose(shape.columns.length, rows);
      const result = await client.query<{ id: number }>(text, ids ? [`{${ids.join(',')}}`, ...params] : params);
      if (keepOpen) {
        const newIds = [`{${result.rows.map((r) => r.id).join(',')}}`];
        await client.query(
          `insert into deals_open_activity (deal_id, account_id, owner_user_id, last_activity_at)
           select id, account_id, owner_user_id, last_activity_at from deals where id = any($1::bigint[]) and status in (${OPEN_LIST})`,
          newIds,
        );
        await client.query(openPipelineOf('id = any($1::bigint[])', '(txid_current() % 16)::int'), newIds);
      }
      return returning ? result.rows.map((r) => Number(r.id)) : [];
    },
    async addCounts(table, key, rows) {
      if (rows.length === 0) return;
      const columns = [...key, 'n'];
      const types = columns.map((c) => (c === 'fact' || c === 'list' || c === 'bucket' ? 'text' : 'bigint'));
      await client.query(
        `insert into ${table} (${columns.join(', ')}) select * from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})
         on conflict (${key.join(', ')}) do update set n = ${table}.n + excluded.n`,
        transpose(columns.length, rows),
      );
    },
    async close() {
      client.release();
    },
  };
}

/** The seed connection's page cache on SQLite, in KiB (negative: a size, not a page count). */
const SQLITE_SEED_CACHE_KB = -Number(process.env.SEED_CACHE_KB ?? 1_048_576);

// --- SQLite: multi-row INSERTs on the one connection (prepared once per shape and size).

function sqliteWriter(db: DatabaseSync, mode: 'direct' | 'triggers'): BulkWriter {
  const direct = mode === 'direct';
  // Bypassing the triggers, the seed also skips the foreign-key lookups (as PostgreSQL's replica mode does;
  // the rows are generated consistent), and inserts `or fail` (a bad row still fails the batch, which is
  // rolled back): with neither a foreign key nor an abort-on-conflict left, SQLite opens no statement
  // journal for each multi-row insert (a copy of every page it touches, a fifth of the deals' CPU).
  const foreignKeys = (db.prepare('pragma foreign_keys').get() as { foreign_keys: number }).foreign_keys;
  if (direct) db.exec('pragma foreign_keys = off');
  const or = direct ? ' or fail' : '';
  // A million deals' indexes (about twenty on deals, five on the timeline, inserted in no useful order) are
  // far larger than the connection's usual page cache: every insert would read its index pages back from
  // the file. For the seed only, this connection keeps up to 1 GB of pages (restored on close).
  const cacheSize = (db.prepare('pragma cache_size').get() as { cache_size: number }).cache_size;
  db.exec(`pragma cache_size = ${SQLITE_SEED_CACHE_KB}`);
  const statements = new Map<string, StatementSync>();
  /** The search index triggers dropped in the open transaction, replayed by `insert`, by table. */
  const replays = new Map<string, Replay[]>();
  const prepared = (text: string) => {
    let stmt = statements.get(text);
    if (!stmt) {
      stmt = db.prepare(text);
      statements.set(text, stmt);
    }
    return stmt;
  };
  const CHUNK = 500;
  /** Statements by the shape `key` names and row count (the statement text is only built once). */
  const byShape = new Map<string, StatementSync>();
  async function chunked(rows: Row[], width: number, key: string, make: (n: number) => string, returning: boolean): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += CHUNK) {
      const part = rows.slice(i, i + CHUNK);
      const shape = `${key} ${part.length}`;
      let stmt = byShape.get(shape);
      if (!stmt) {
        stmt = prepared(make(part.length));
        byShape.set(shape, stmt);
      }
      const params = part.flat().map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v));
      if (params.length !== part.length * width) throw new Error('seed: row width does not match its table');
      if (returning) for (const r of stmt.all(...params) as { id: number }[]) ids.push(Number(r.id));
      else stmt.run(...params);
    }
    return ids;
  }
  const placeholders = (width: number, n: number) => Array.from({ length: n }, () => `(${Array(width).fill('?').join(', ')})`).join(', ');
  return {
    direct,
    async transaction(fn) {
      db.exec('begin immediate');
      try {
        // SQLite has no per-session switch for triggers: they are dropped and created again inside the
        // transaction, which no other connection can observe (one writer at a time; readers see the last commit).
        // The search index triggers are replayed by `insert` over each insert's new rows, in id order: the
        // same entries, in the same order, as row by row.
        const triggers = direct
          ? (db
              .prepare(
                `select name, tbl_name as tbl, sql from sqlite_master where type = 'trigger' and tbl_name in (${TRIGGER_TABLES.map(() => '?').join(', ')})`,
              )
              .all(...TRIGGER_TABLES) as { name: string; tbl: string; sql: string }[])
          : [];
        replays.clear();
        const replayed = new Set<string>();
        for (const t of triggers) {
          const replay = SEARCH_INSERT.test(t.name) ? replayOf(t.tbl, t.sql) : null;
          if (!replay) continue;
          replays.set(t.tbl, [...(replays.get(t.tbl) ?? []), replay]);
          replayed.add(t.name);
        }
        // Only the triggers whose effect the seed writes itself: the rollup ones, and each search trigger it replays.
        const saved = triggers.filter((t) => REPRODUCED.test(t.name) || replayed.has(t.name));
        for (const t of saved) db.exec(`drop trigger ${t.name}`);
        const result = await fn();
        for (const t of saved) db.exec(t.sql);
        db.exec('commit');
        return result;
      } catch (err) {
        if (db.isTransaction) db.exec('rollback');
        throw err;
      } finally {
        replays.clear();
      }
    },
    async reserveIds() {
      return null;
    },
    async insert(table, rows, returning = false) {
      const shape = SHAPES[table];
      const names = shape.columns.map(([name]) => name).join(', ');
      const width = shape.columns.length;
      const replay = replays.get(table) ?? [];
      // The open pipeline's trigger is one the seed bypasses: its rows are added over the new deals' ids.
      const keepOpen = direct && table === 'deals';
      const withIds = returning || replay.length > 0 || keepOpen;
      const ids = await chunked(
        rows,
        width,
        `${table} ${withIds}`,
        (n) => `insert${or} into ${table} (${names}) values ${placeholders(width, n)}${withIds ? ' returning id' : ''}`,
        withIds,
      );
      if (ids.length > 0 && (replay.length > 0 || keepOpen)) {
        // One writer at a time: the ids from the first to the last new one are exactly this insert's rows.
        let first = ids[0];
        let last = ids[0];
        for (const id of ids) {
          if (id < first) first = id;
          if (id > last) last = id;
        }
        for (const r of replay) {
          if (r.check && Number((prepared(r.check).get(first, last) as { n: number }).n) > 0) throw new Error(r.message);
          prepared(r.insert).run(first, last);
        }
        if (keepOpen) prepared(openPipelineOf('id between ? and ?', '0')).run(first, last);
      }
      return returning ? ids : [];
    },
    async addCounts(table, key, rows) {
      const columns = [...key, 'n'];
      await chunked(
        rows,
        columns.length,
        `${table} counts`,
        (n) =>
          `insert${or} into ${table} (${columns.join(', ')}) values ${placeholders(columns.length, n)}
         on conflict (${key.join(', ')}) do update set n = ${table}.n + excluded.n`,
        false,
      );
    },
    async close() {
      statements.clear();
      byShape.clear();
      db.exec(`pragma cache_size = ${cacheSize}`);
      db.exec(`pragma foreign_keys = ${foreignKeys ? 'on' : 'off'}`);
    },
  };
}
