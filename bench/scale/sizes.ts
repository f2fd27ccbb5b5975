import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database.ts';

const TABLES = ['deals', 'deal_activities', 'deal_status_history', 'tickets', 'support_logs', 'contacts', 'orgs', 'analytics_daily', 'list_counts'];

/**
 * Disk used by each table and each of its indexes, in MB: what the list, sort, analytics and
 * search indexes cost. SQLite: the dbstat virtual table (FTS5 shadow tables listed as such);
 * PostgreSQL: pg_relation_size of the heap and of every index.
 */
export async function storageMb(h: DatabaseHandle): Promise<Record<string, number>> {
  const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;
  const out: Record<string, number> = {};
  if (h.dialect === 'sqlite') {
    const rows = await sql<{ name: string; tbl: string | null; bytes: number }>`
      select d.name as name, m.tbl_name as tbl, sum(d.pgsize) as bytes from dbstat d left join sqlite_master m on m.name = d.name
      group by d.name order by bytes desc`.execute(h.db);
    for (const r of rows.rows) {
      const owner = r.tbl ?? r.name;
      if (TABLES.some((t) => owner === t || owner.startsWith(`${t}_search`) || owner.startsWith(`${t}_trigrams`)))
        out[owner === r.name ? r.name : `${owner}.${r.name}`] = mb(Number(r.bytes));
    }
    return out;
  }
  const rows = await sql<{ tbl: string; name: string; bytes: number }>`
    select c.relname as tbl, c.relname as name, pg_relation_size(c.oid) as bytes from pg_class c
      where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace and c.relname = any(${TABLES})
    union all
    select t.relname, i.relname, pg_relation_size(i.oid) from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
      where t.relnamespace = current_schema()::regnamespace and t.relname = any(${TABLES})
    order by 3 desc`.execute(h.db);
  for (const r of rows.rows) out[r.tbl === r.name ? r.name : `${r.tbl}.${r.name}`] = mb(Number(r.bytes));
  return out;
}
