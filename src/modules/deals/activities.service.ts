import type { Executor } from '../../db/database.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { iso } from '../../lib/clock.ts';
import { notFound, validationError } from '../../lib/errors.ts';
import { entriesPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './activities.repository.ts';
import { emitActivityCreated } from './deals.events.ts';
import type { CreateActivityInput, DealActivityView } from './deals.schemas.ts';
import { type Actor, getDealRow } from './deals.service.ts';
import { metadataProblem } from './deals.values.ts';
import type { IdempotencyClaim } from '../../lib/write.ts';

export function toActivityView(r: repo.ActivityRow): DealActivityView {
  return {
    id: Number(r.id),
    deal_id: Number(r.deal_id),
    event_type: r.event_type,
    message: r.message,
    outcome: r.outcome,
    source_app: r.source_app,
    external_reference: r.external_reference,
    metadata: r.metadata === null ? null : (JSON.parse(r.metadata) as Record<string, unknown>),
    user_id: r.user_id === null ? null : Number(r.user_id),
    created_at: iso(r.created_at),
  };
}

export async function listActivities(
  db: Executor,
  accountId: number,
  dealId: number,
  order: { sort?: 'created_at' | 'id'; direction?: 'asc' | 'desc' },
  page: PageRequest,
): Promise<ListResult<DealActivityView>> {
  await getDealRow(db, accountId, dealId);
  return entriesPage(page, order, {
    count: () => repo.countActivities(db, accountId, dealId),
    list: (sort, direction, limit, offset) => repo.listActivities(db, accountId, dealId, sort, direction, limit, offset),
    view: toActivityView,
  });
}

export async function getActivity(db: Executor, accountId: number, dealId: number, id: number): Promise<DealActivityView> {
  await getDealRow(db, accountId, dealId);
  const row = await repo.findActivity(db, accountId, dealId, id);
  if (!row) throw notFound('deal_activity_not_found', id);
  return toActivityView(row);
}

type Deps = Pick<ModuleDeps, 'write'>;

/**
 * Logs a timeline entry: the row and deal.activity.created commit together, and with them the deal's
 * last_activity_at, which a trigger moves forward at the commit (migration 2026-11-27T1910).
 */
export async function createActivity(
  deps: Deps,
  actor: Actor,
  dealId: number,
  input: CreateActivityInput,
  claim: IdempotencyClaim | null = null,
): Promise<DealActivityView> {
  const problem = input.metadata_json === undefined ? null : metadataProblem(input.metadata_json);
  if (problem) throw validationError({ metadata_json: problem });
  if (input.message.trim() === '') throw validationError({ message: 'too_short' });
  if (input.source_app.trim() === '') throw validationError({ source_app: 'too_short' });
  return deps.write(claim, async (w) => {
    const { trx, now } = w;
    const row = await repo.insertActivityOnDeal(trx, {
      account_id: actor.accountId,
      deal_id: dealId,
      event_type: input.activity_kind ?? 'note',
      message: input.message,
      outcome: input.outcome ?? null,
      source_app: input.source_app,
      external_reference: input.external_reference ?? null,
      metadata: input.metadata_json === undefined ? null : JSON.stringify(input.metadata_json),
      user_id: actor.userId,
      created_at: now,
    });
    if (!row) throw notFound('deal_not_found', dealId);
    const activity = toActivityView(row);
    emitActivityCreated(w, actor.accountId, Number(row.org_id), activity);
    return activity;
  });
}
