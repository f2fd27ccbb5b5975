// Frozen in time, as the migrations that import it (2026-11-25T0300_analytics_levels and
// 2026-11-25T0310_analytics_kept): never edited once released, since editing it would change what
// those migrations do. A later migration that needs something like it copies it instead.
// It imports no application code.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

export function isSqlite(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

/**
 * First day (days since 1970-01-01) of the UTC calendar month holding day `d`: the integer
 * civil-from-days algorithm (H. Hinnant), the same arithmetic on both engines (as in 0160).
 */
export const monthStart = (d: string) =>
  `(select ${d} - (doy - (153 * ((5 * doy + 2) / 153) + 2) / 5) from (select doe - (365 * yoe + yoe / 4 - yoe / 100) as doy from ` +
  `(select doe, (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365 as yoe from ` +
  `(select (${d} + 719468) - ((${d} + 719468) / 146097) * 146097 as doe) as a) as b) as c)`;

const OPS = ['ai', 'au', 'ad'] as const;

/** Something a trigger counts: the columns of the row it reads (an update that changes none of them leaves its counts alone). */
export interface Counted {
  reads: string[];
}

/**
 * `apply(item, row, sign, cond)`: the statements counting `row` (`new` or `old`) of an item with
 * `sign` when `cond` holds.
 */
export type Apply<T extends Counted> = (item: T, row: 'new' | 'old', sign: 1 | -1, cond: string) => string;

/** Some column the item reads differs between `old` and `new`. */
const changed = (item: Counted) => `not (${item.reads.map((c) => `old.${c} is not distinct from new.${c}`).join(' and ')})`;

/**
 * Triggers `<name>_ai`, `<name>_au` and `<name>_ad` on `table` that keep the counts of `items`
 * exact: an insert counts the new row, a delete uncounts the old one, an update of a column an
 * item reads moves that item's count from the old row to the new. SQLite: triggers; PostgreSQL:
 * a trigger function and a row trigger of the same name per operation.
 */
export async function createCountTriggers<T extends Counted>(db: AnyDb, name: string, table: string, items: T[], apply: Apply<T>): Promise<void> {
  const sqlite = isSqlite(db);
  const reads = [...new Set(items.flatMap((i) => i.reads))];
  const bodies = {
    ai: items.map((i) => apply(i, 'new', 1, '1 = 1')).join('\n'),
    au: items.map((i) => `${apply(i, 'old', -1, changed(i))}\n${apply(i, 'new', 1, changed(i))}`).join('\n'),
    ad: items.map((i) => apply(i, 'old', -1, '1 = 1')).join('\n'),
  };
  const events = { ai: 'after insert', au: `after update of ${reads.join(', ')}`, ad: 'after delete' };
  for (const op of OPS) {
    if (sqlite) {
      await sql.raw(`create trigger ${name}_${op} ${events[op]} on ${table} begin\n${bodies[op]}\nend`).execute(db);
    } else {
      await sql.raw(`create function ${name}_${op}() returns trigger language plpgsql as $fn$ begin\n${bodies[op]}\nreturn null; end $fn$`).execute(db);
      await sql.raw(`create trigger ${name}_${op} ${events[op]} on ${table} for each row execute function ${name}_${op}()`).execute(db);
    }
  }
}

/** Drops what createCountTriggers made for `name` on `table`. */
export async function dropCountTriggers(db: AnyDb, name: string, table: string): Promise<void> {
  const sqlite = isSqlite(db);
  for (const op of OPS) {
    await sql.raw(`drop trigger if exists ${name}_${op}${sqlite ? '' : ` on ${table}`}`).execute(db);
    if (!sqlite) await sql.raw(`drop function if exists ${name}_${op}()`).execute(db);
  }
}
