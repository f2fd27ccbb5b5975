import { sql } from 'kysely';
import type { Harness } from './harness.ts';

/**
 * Makes every INSERT into `table` fail inside the database (a trigger), as a crash between the
 * statements of one transaction would; returns the function that removes the fault.
 */
export async function failInserts(h: Harness, table: 'events' | 'idempotency_keys' | 'orgs'): Promise<() => Promise<void>> {
  const name = sql.raw(`test_fail_${table}`);
  const target = sql.table(table);
  if (h.engine === 'sqlite') {
    await sql`create trigger ${name} before insert on ${target} begin select raise(abort, 'injected failure'); end`.execute(h.db);
    return async () => void (await sql`drop trigger ${name}`.execute(h.db));
  }
  await sql`create function ${name}() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`.execute(h.db);
  await sql`create trigger ${name} before insert on ${target} for each row execute function ${name}()`.execute(h.db);
  return async () => {
    await sql`drop trigger ${name} on ${target}`.execute(h.db);
    await sql`drop function ${name}()`.execute(h.db);
  };
}
