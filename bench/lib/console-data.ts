// Bench data for the console scenario: an account with a signed-in-able owner, filled by the same
// seed as `custops seed` (per 1,000 deals: 3,000 timeline activities, 300 tickets, 10 orgs …).
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { seedAccount, type SeedCounts } from '../../src/seed/seed.ts';

export interface ConsoleAccount {
  accountId: number;
  email: string;
  password: string;
  /** A deal in the middle of the id range, for the deal page. */
  dealId: number;
  counts: SeedCounts;
}

export async function seedConsoleAccount(h: DatabaseHandle, deals: number, name: string): Promise<ConsoleAccount> {
  const email = `owner@${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.example`;
  const password = 'bench-console-password';
  const { account } = await createAccount({ db: h.db, clock: systemClock }, { name, ownerEmail: email, ownerPassword: password, ownerName: 'Bench Owner' });
  const counts = await seedAccount(h, systemClock, { accountId: account.id, deals, seed: 1 });
  // Planner statistics, as a database that has lived a while would have them.
  for (const table of ['orgs', 'contacts', 'deals', 'deal_activities', 'tickets', 'support_logs', 'deal_status_history'])
    await sql.raw(`analyze ${table}`).execute(h.db);
  const ids = await h.db.selectFrom('deals').select('id').where('account_id', '=', account.id).orderBy('id').execute();
  return { accountId: account.id, email, password, dealId: Number(ids[ids.length >> 1].id), counts };
}
