import type { Db } from '../../src/db/database.ts';

/** Per `<status> <currency>` ('' for none): the open deals, how many have a value, and their sum in cents. */
export type OpenPipelineFigures = Record<string, { n: number; valued: number; cents: number }>;

const OPEN = ['new', 'qualified', 'proposal', 'negotiation'] as const;

/** The kept open pipeline of an account (migration 2026-11-28T1900): shards summed, rows that sum to nothing left out. */
export async function keptOpenPipeline(db: Db, accountId: number): Promise<OpenPipelineFigures> {
  const rows = await db
    .selectFrom('open_pipeline')
    .select([
      'status',
      'currency',
      (e) => e.fn.sum<number>('n').as('n'),
      (e) => e.fn.sum<number>('valued').as('valued'),
      (e) => e.fn.sum<number>('cents').as('cents'),
    ])
    .where('account_id', '=', accountId)
    .groupBy(['status', 'currency'])
    .execute();
  const out: OpenPipelineFigures = {};
  for (const r of rows) {
    const f = { n: Number(r.n), valued: Number(r.valued), cents: Number(r.cents) };
    if (f.n !== 0 || f.valued !== 0 || f.cents !== 0) out[`${r.status} ${r.currency}`] = f;
  }
  return out;
}

/** The same figures counted from the account's open deals. */
export async function recountOpenPipeline(db: Db, accountId: number): Promise<OpenPipelineFigures> {
  const rows = await db
    .selectFrom('deals')
    .select(['status', 'currency', 'value_cents'])
    .where('account_id', '=', accountId)
    .where('status', 'in', OPEN)
    .execute();
  const out: OpenPipelineFigures = {};
  for (const r of rows) {
    const key = `${r.status} ${r.currency ?? ''}`;
    out[key] ??= { n: 0, valued: 0, cents: 0 };
    const f = out[key];
    f.n++;
    if (r.value_cents !== null) {
      f.valued++;
      f.cents += Number(r.value_cents);
    }
  }
  return out;
}
