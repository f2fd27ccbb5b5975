import type { Updateable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { DealsTable, DealStatus } from '../../db/schema.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { iso } from '../../lib/clock.ts';
import { dateRange } from '../../lib/dates.ts';
import { type AppError, notFound, validationError } from '../../lib/errors.ts';
import type { IdempotencyClaim } from '../../lib/write.ts';
import { emitDealCreated, emitStatusEvent } from './deals.events.ts';
import { listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './deals.repository.ts';
import { OPEN_STATUSES, type CreateDealInput, type DealListQueryT, type DealSearchQueryT, type DealView, type PatchDealInput } from './deals.schemas.ts';
import { checkFields, renderMoney } from './deals.values.ts';
import { existsInAccount } from '../../lib/sql.ts';

const nullableId = (v: number | null) => (v === null ? null : Number(v));

export function toDealView(r: repo.DealRow): DealView {
  return {
    id: Number(r.id),
    org_id: Number(r.org_id),
    contact_id: nullableId(r.contact_id),
    owner_user_id: nullableId(r.owner_user_id),
    title: r.title,
    status: r.status,
    value: renderMoney(r.value_cents),
    currency: r.currency,
    payment_customer_id: r.payment_customer_id,
    next_followup_at: iso(r.next_followup_at),
    lost_reason: r.lost_reason_code !== null ? { code: r.lost_reason_code, label: r.lost_reason_label ?? '' } : null,
    closed_at: iso(r.closed_at),
    closed_by_user_id: nullableId(r.closed_by_user_id),
    last_activity_at: iso(r.last_activity_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** Ids of other records given as filters must exist in the account (404 otherwise, as anywhere). */
export async function requireRefs(
  db: Executor,
  accountId: number,
  refs: { orgId?: number | null; ownerUserId?: number | null; contactId?: number | null },
): Promise<void> {
  if (refs.orgId != null && !(await existsInAccount(db, 'orgs', accountId, refs.orgId))) throw notFound('org_not_found', refs.orgId);
  if (refs.ownerUserId != null && !(await existsInAccount(db, 'users', accountId, refs.ownerUserId))) throw notFound('user_not_found', refs.ownerUserId);
  if (refs.contactId != null && !(await existsInAccount(db, 'contacts', accountId, refs.contactId))) throw notFound('contact_not_found', refs.contactId);
}

export async function listDeals(db: Executor, accountId: number, query: DealListQueryT, page: PageRequest): Promise<ListResult<DealView>> {
  const created = dateRange(query, 'created_from', 'created_to');
  const updated = dateRange(query, 'updated_from', 'updated_to');
  await requireRefs(db, accountId, { orgId: query.org_id, ownerUserId: query.owner_user_id, contactId: query.contact_id });
  const filter: repo.DealFilter = {
    status: query.status,
    orgId: query.org_id,
    ownerUserId: query.owner_user_id,
    contactId: query.contact_id,
    q: query.q,
    createdFrom: created.from,
    createdTo: created.to,
    updatedFrom: updated.from,
    updatedTo: updated.to,
  };
  const sort = query.sort ?? 'created_at';
  const direction = query.direction ?? 'desc';
  return listPage(
    page,
    () => repo.countDeals(db, accountId, filter),
    (limit, offset, total) => repo.listDeals(db, accountId, filter, sort, direction, limit, offset, total),
    (rows) => rows.map(toDealView),
    (limit, offset) => repo.listDealsWithTotal(db, accountId, filter, sort, direction, limit, offset),
  );
}

export async function searchDeals(db: Executor, accountId: number, query: DealSearchQueryT, page: PageRequest): Promise<ListResult<DealView>> {
  if (query.payment_customer_id === undefined && query.contact_email === undefined && query.org_id === undefined) {
    throw validationError(
      { payment_customer_id: 'required', contact_email: 'required', org_id: 'required' },
      'Give at least one of payment_customer_id, contact_email, org_id.',
    );
  }
  await requireRefs(db, accountId, { orgId: query.org_id });
  const search: repo.DealSearch = {
    paymentCustomerId: query.payment_customer_id,
    contactEmailLc: query.contact_email?.trim().toLowerCase(),
    orgId: query.org_id,
  };
  return listPage(
    page,
    () => repo.countSearch(db, accountId, search),
    (limit, offset) => repo.searchDeals(db, accountId, search, limit, offset),
    (rows) => rows.map(toDealView),
  );
}

export async function getDealRow(db: Executor, accountId: number, id: number, options: { forUpdate?: boolean } = {}): Promise<repo.DealRow> {
  const row = await repo.findDeal(db, accountId, id, options);
  if (!row) throw notFound('deal_not_found', id);
  return row;
}

export async function getDeal(db: Executor, accountId: number, id: number): Promise<DealView> {
  return toDealView(await getDealRow(db, accountId, id));
}

type WriteDeps = Pick<ModuleDeps, 'write'>;

/** Who makes the change: API keys act as nobody (userId null); the console passes its user. */
export interface Actor {
  accountId: number;
  userId: number | null;
}

export const isOpen = (s: DealStatus) => (OPEN_STATUSES as readonly string[]).includes(s);

/** A deal's contact must be a contact of the deal's org: unknown (or another account's) is 404, another org's is 422. */
async function requireContactOfOrg(db: Executor, accountId: number, contactId: number, orgId: number): Promise<void> {
  const contactOrg = await repo.contactOrg(db, accountId, contactId);
  if (contactOrg === undefined) throw notFound('contact_not_found', contactId);
  if (contactOrg !== orgId) throw validationError({ contact_id: 'not_in_org' }, 'The contact belongs to another org than the deal.');
}

function lostReasonNotAllowed(): AppError {
  return validationError({ lost_reason: 'not_allowed' }, 'lost_reason is allowed only when the deal is (or becomes) lost.');
}

export async function createDeal(deps: WriteDeps, actor: Actor, input: CreateDealInput, claim: IdempotencyClaim | null = null): Promise<DealView> {
  const status = input.status ?? 'new';
  const v = checkFields(input);
  if (input.lost_reason && status !== 'lost') throw lostReasonNotAllowed();
  const closed = !isOpen(status);
  return deps.write(claim, async (w) => {
    const { trx, now } = w;
    // The references are checked in the transaction that uses them.
    await requireRefs(trx, actor.accountId, { orgId: input.org_id, ownerUserId: input.owner_user_id });
    if (input.contact_id != null) await requireContactOfOrg(trx, actor.accountId, input.contact_id, input.org_id);
    const row = await repo.insertDeal(trx, {
      account_id: actor.accountId,
      org_id: input.org_id,
      contact_id: input.contact_id ?? null,
      owner_user_id: input.owner_user_id ?? null,
      title: input.title,
      title_lc: input.title.toLowerCase(),
      status,
      value_cents: v.valueCents ?? null,
      currency: v.currency ?? null,
      payment_customer_id: input.payment_customer_id ?? null,
      next_followup_at: v.nextFollowupAt ?? null,
      lost_reason_code: input.lost_reason?.code ?? null,
      lost_reason_label: input.lost_reason?.label ?? null,
      closed_at: closed ? now : null,
      closed_by_user_id: closed ? actor.userId : null,
      last_activity_at: now,
      created_at: now,
      updated_at: now,
    });
    const view = toDealView(row);
    // Created already closed: the deal was both created and marked won/lost, so both events fire, creation first.
    emitDealCreated(w, actor.accountId, view);
    emitStatusEvent(w, actor.accountId, view);
    // Last: its funnel trigger adds to today's row for the account, which every deal create of the
    // account takes in turn (PostgreSQL), so it is held for the fewest round trips before the commit.
    await repo.insertStatusHistory(trx, {
      account_id: actor.accountId,
      deal_id: row.id,
      from_status: null,
      to_status: status,
      changed_by_user_id: actor.userId,
      changed_at: now,
    });
    return view;
  });
}

/**
 * The deal state machine. Open statuses move freely among themselves and to won or lost; a
 * closed deal may be reopened to an open status; and, as the specification's state table has
 * it, any deal may be marked won or lost, so won ↔ lost is a direct move (closed anew, with its event).
 * Every move is recorded in the status history; which moves emit an event is decided in deals.events.ts.
 */
export async function patchDeal(deps: WriteDeps, actor: Actor, id: number, input: PatchDealInput, claim: IdempotencyClaim | null = null): Promise<DealView> {
  const v = checkFields(input);
  return deps.write(claim, async (w) => {
    const { trx, now } = w;
    const current = await getDealRow(trx, actor.accountId, id, { forUpdate: true });
    const to = input.status ?? current.status;
    const moving = to !== current.status;
    if (input.lost_reason && to !== 'lost') throw lostReasonNotAllowed();
    if (input.owner_user_id != null) await requireRefs(trx, actor.accountId, { ownerUserId: input.owner_user_id });
    if (input.contact_id != null) await requireContactOfOrg(trx, actor.accountId, input.contact_id, Number(current.org_id));

    const set: Updateable<DealsTable> = {};
    if (input.title !== undefined && input.title !== current.title) Object.assign(set, { title: input.title, title_lc: input.title.toLowerCase() });
    if (input.owner_user_id !== undefined && input.owner_user_id !== current.owner_user_id) set.owner_user_id = input.owner_user_id;
    if (input.contact_id !== undefined && input.contact_id !== current.contact_id) set.contact_id = input.contact_id;
    if (v.valueCents !== undefined && v.valueCents !== current.value_cents) set.value_cents = v.valueCents;
    if (v.currency !== undefined && v.currency !== current.currency) set.currency = v.currency;
    if (v.nextFollowupAt !== undefined && v.nextFollowupAt !== current.next_followup_at) set.next_followup_at = v.nextFollowupAt;
    if (moving) {
      set.status = to;
      if (isOpen(to)) {
        // Reopening (or moving among open statuses) leaves nothing of a previous close behind.
        Object.assign(set, { closed_at: null, closed_by_user_id: null, lost_reason_code: null, lost_reason_label: null });
      } else {
        Object.assign(set, { closed_at: now, closed_by_user_id: actor.userId });
        Object.assign(set, { lost_reason_code: input.lost_reason?.code ?? null, lost_reason_label: input.lost_reason?.label ?? null });
      }
    } else if (input.lost_reason !== undefined && to === 'lost') {
      const code = input.lost_reason?.code ?? null;
      const label = input.lost_reason?.label ?? null;
      if (code !== current.lost_reason_code || label !== current.lost_reason_label) Object.assign(set, { lost_reason_code: code, lost_reason_label: label });
    }
    if (Object.keys(set).length === 0) return toDealView(current);

    set.updated_at = now;
    const row = await repo.updateDeal(trx, actor.accountId, id, set);
    const view = toDealView(row);
    if (!moving) return view;
    await repo.insertStatusHistory(trx, {
      account_id: actor.accountId,
      deal_id: id,
      from_status: current.status,
      to_status: to,
      changed_by_user_id: actor.userId,
      changed_at: now,
    });
    emitStatusEvent(w, actor.accountId, view);
    return view;
  });
}
