import type { Executor } from '../db/database.ts';
import { prepareQuery } from '../db/prepared.ts';
import { inList } from './sql.ts';
import type { ListCountsTable } from '../db/schema.ts';

/**
 * A list's total as kept by the list_counts triggers: the sum of the shard rows of each bucket
 * (`''` for the whole list, `status:<s>` per status). Exact the moment a write commits, in any
 * process, and a read of at most 16 rows per bucket whatever the account's size.
 */
export async function keptCount(db: Executor, accountId: number, list: ListCountsTable['list'], buckets: string[]): Promise<number> {
  if (buckets.length === 0) return 0;
  if (buckets.length === 1) return Number((await oneBucket.rows(db, accountId, list, buckets[0]))[0].n);
  const row = await db
    .selectFrom('list_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('account_id', '=', accountId)
    .where('list', '=', list)
    .where('bucket', 'in', inList(buckets))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One bucket's total, the common case (a whole list, or one status), prepared (docs/design.md#prepared-queries). */
const oneBucket = prepareQuery<[accountId: number, list: ListCountsTable['list'], bucket: string], { n: number | string }>(
  (db, accountId, list, bucket) =>
    db
      .selectFrom('list_counts')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
      .where('account_id', '=', accountId)
      .where('list', '=', list)
      .where('bucket', '=', bucket),
  { pipelined: true },
);
