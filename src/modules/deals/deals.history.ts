import { Type, type Static } from 'typebox';
import type { Executor } from '../../db/database.ts';
import { STATUS_CHANGE_COLUMNS } from '../../db/columns.ts';
import { iso } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import { engineOf } from '../../db/engine.ts';
import { countRows, existsInAccount, pageWindow } from '../../lib/sql.ts';
import { Id, ListOf, Nullable, PageQuery, Timestamp } from '../../http/schemas.ts';
import { DEAL_STATUSES } from './deals.schemas.ts';

/**
 * Reads the console's deal pages need beyond the deal itself: the recorded status changes of
 * one deal, and the lost reasons the account has used (offered again when a deal is lost).
 */

export const DealStatusChange = Type.Object(
  {
    id: Id(),
    deal_id: Id(),
    from_status: Nullable(Type.Enum([...DEAL_STATUSES], { description: 'null for the status the deal was created with.' })),
    to_status: Type.Enum([...DEAL_STATUSES]),
    changed_by_user_id: Nullable(Id('The team user who made the change; null when made through an API key.')),
    changed_at: Timestamp(),
  },
  { $id: 'DealStatusChange', title: 'DealStatusChange', description: 'One recorded status change of a deal (its creation included).' },
);
type DealStatusChangeView = Static<typeof DealStatusChange>;
export const DealStatusChangeList = ListOf(Type.Ref('DealStatusChange'), 'DealStatusChangeList');

export const StatusHistoryQuery = Type.Object({
  direction: Type.Optional(Type.Enum(['asc', 'desc'], { default: 'desc', description: 'By changed_at, ties by id in the same direction.' })),
  ...PageQuery,
});

export const LostReasonUsage = Type.Object(
  {
    code: Type.String(),
    label: Type.String(),
    deals: Type.Integer({ description: 'Lost deals that carry this code and label now.' }),
    last_lost_at: Nullable(Timestamp('The newest closed_at among those deals.')),
  },
  { $id: 'LostReasonUsage', title: 'LostReasonUsage', description: "A lost reason (code and label) used by the account's lost deals." },
);
type LostReasonUsageView = Static<typeof LostReasonUsage>;
export const LostReasonUsageList = ListOf(Type.Ref('LostReasonUsage'), 'LostReasonUsageList');

export async function listStatusHistory(
  db: Executor,
  accountId: number,
  dealId: number,
  direction: 'asc' | 'desc',
  page: PageRequest,
): Promise<ListResult<DealStatusChangeView>> {
  if (!(await existsInAccount(db, 'deals', accountId, dealId))) throw notFound('deal_not_found', dealId);
  const ofDeal = db.selectFrom('deal_status_history').where('account_id', '=', accountId).where('deal_id', '=', dealId);
  return listPage(
    page,
    () => countRows(db, ofDeal),
    (limit, offset) => pageWindow(ofDeal.select(STATUS_CHANGE_COLUMNS).orderBy('changed_at', direction).orderBy('id', direction), limit, offset).execute(),
    (rows) =>
      rows.map((r) => ({
        id: Number(r.id),
        deal_id: Number(r.deal_id),
        from_status: r.from_status,
        to_status: r.to_status,
        changed_by_user_id: r.changed_by_user_id === null ? null : Number(r.changed_by_user_id),
        changed_at: iso(r.changed_at),
      })),
  );
}

/** Lost deals grouped by reason, most recently used first (ties: code, then label, in code-point order). */
export async function listLostReasons(db: Executor, accountId: number, page: PageRequest): Promise<ListResult<LostReasonUsageView>> {
  // The (account_id, status, created_at) index narrows this to the account's lost deals.
  const grouped = db
    .selectFrom('deals')
    .where('account_id', '=', accountId)
    .where('status', '=', 'lost')
    .where('lost_reason_code', 'is not', null)
    .groupBy(['lost_reason_code', 'lost_reason_label']);
  return listPage(
    page,
    () => countRows(db, db.selectFrom(grouped.select(['lost_reason_code', 'lost_reason_label']).as('g'))),
    (limit, offset) =>
      pageWindow(
        grouped
          .select((eb) => ['lost_reason_code', 'lost_reason_label', eb.fn.countAll<number>().as('n'), eb.fn.max('closed_at').as('last')])
          .orderBy('last', 'desc')
          .orderBy(engineOf(db).codePointOrder('lost_reason_code'))
          .orderBy(engineOf(db).codePointOrder('lost_reason_label')),
        limit,
        offset,
      ).execute(),
    (rows) =>
      rows.map((r) => ({
        code: r.lost_reason_code ?? '',
        label: r.lost_reason_label ?? '',
        deals: Number(r.n),
        last_lost_at: r.last === null ? null : iso(Number(r.last)),
      })),
  );
}
