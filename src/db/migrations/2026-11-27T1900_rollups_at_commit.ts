// Frozen in time: this migration never imports application code and is never edited once released.
import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Kysely<any>: migrations see the database as it was, not today's types.
type AnyDb = Kysely<any>;

/**
 * The row triggers that keep counters (analytics rollups, kept list counts): each adds to counter
 * rows from the row it fires for. Every writer of an account adds to the same few counter rows
 * (today's activities of each kind, the account's list total), so on PostgreSQL a writer waited
 * for the row lock of the one before it, held from its trigger until its commit: the rest of its
 * transaction and every round trip of it. The funnel's own triggers (2026-11-21T0170), which read
 * other rows to decide, are left as they are. `analytics_deals_au` keeps an older funnel count
 * that reads a deal's status history, but only when the deal's creation day changes, which no
 * write does.
 */
const COUNTERS: Record<string, string[]> = {
  deal_activities: ['analytics_deal_activities', 'analytics_levels_deal_activities'],
  deals: ['analytics_deals', 'analytics_kept_deals', 'analytics_levels_deals', 'list_counts_deals'],
  support_logs: ['analytics_support_logs', 'analytics_levels_support_logs'],
  tickets: ['analytics_tickets', 'analytics_kept_tickets', 'analytics_levels_tickets', 'list_counts_tickets'],
  orgs: ['list_counts_orgs'],
  contacts: ['list_counts_contacts'],
};
/** Orgs and contacts have no status: their counts have no update trigger. */
const OPS = (name: string) => (name === 'list_counts_orgs' || name === 'list_counts_contacts' ? ['ai', 'ad'] : ['ai', 'au', 'ad']);
const TRIGGERS = Object.values(COUNTERS)
  .flat()
  .flatMap((n) => OPS(n).map((op) => `${n}_${op}`));

/**
 * Re-creates each trigger from its own definition (`pg_get_triggerdef`), as it is or as a constraint
 * trigger deferred to the commit, in the current schema.
 */
function recreate(deferred: boolean): string {
  const from = deferred ? `'CREATE TRIGGER'` : `'CREATE CONSTRAINT TRIGGER'`;
  const to = deferred ? `'CREATE CONSTRAINT TRIGGER'` : `'CREATE TRIGGER'`;
  const rest = deferred ? `replace(d, ' FOR EACH ROW', ' DEFERRABLE INITIALLY DEFERRED FOR EACH ROW')` : `replace(d, ' DEFERRABLE INITIALLY DEFERRED', '')`;
  return `do $$
declare r record; d text; n int := 0;
begin
  for r in select t.oid, t.tgname, c.relname from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = current_schema()::regnamespace and not t.tgisinternal and t.tgname in (${TRIGGERS.map((n) => `'${n}'`).join(', ')})
      order by c.relname, t.tgname loop
    d := replace(pg_get_triggerdef(r.oid), ${from}, ${to});
    execute format('drop trigger %I on %I', r.tgname, r.relname);
    execute ${rest};
    n := n + 1;
  end loop;
  if n <> ${TRIGGERS.length} then
    raise exception 'expected % counter triggers, found %', ${TRIGGERS.length}, n;
  end if;
end $$`;
}

/**
 * PostgreSQL: the counter triggers run at the commit (constraint triggers, deferrable, initially
 * deferred), in the same transaction, so a writer holds a counter row's lock for its commit alone
 * and writers of one account no longer queue behind each other's round trips. Totals stay exact
 * the moment a write commits. SQLite has one writer at a time: nothing to change.
 */
export async function up(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql.raw(recreate(true)).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  await sql.raw(recreate(false)).execute(db);
}
