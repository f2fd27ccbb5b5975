import type { Executor, Trx } from '../../db/database.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import type { IdempotencyClaim } from '../../lib/write.ts';
import * as repo from './audiences.repository.ts';
import { findContact } from './contacts.repository.ts';
import { MAX_MEMBERSHIPS, type AudienceView } from './contacts.schemas.ts';

type WriteDeps = Pick<ModuleDeps, 'db' | 'write'>;

const toView = (r: repo.AudienceRow): AudienceView => ({ id: Number(r.id), name: r.name });

export async function listAudiences(db: Executor, accountId: number, page: PageRequest): Promise<ListResult<AudienceView>> {
  return listPage(
    page,
    () => repo.countAudiences(db, accountId),
    (limit, offset) => repo.listAudiences(db, accountId, limit, offset),
    (rows) => rows.map(toView),
  );
}

export async function getAudience(db: Executor, accountId: number, id: number): Promise<AudienceView> {
  const row = await repo.findAudience(db, accountId, id);
  if (!row) throw notFound('audience_not_found', id);
  return toView(row);
}

function nameTaken(): AppError {
  return new AppError('conflict', 'A marketing audience with this name already exists in the account.');
}

export async function createAudience(deps: WriteDeps, accountId: number, name: string, claim: IdempotencyClaim | null = null): Promise<AudienceView> {
  if (await repo.findAudienceByName(deps.db, accountId, name)) throw nameTaken();
  try {
    return await deps.write(claim, async ({ trx, now }) => toView(await repo.insertAudience(trx, { account_id: accountId, name, created_at: now })));
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

export async function contactAudiences(db: Executor, accountId: number, contactId: number, page: PageRequest): Promise<ListResult<AudienceView>> {
  if (!(await findContact(db, accountId, contactId))) throw notFound('contact_not_found', contactId);
  return membershipPage(db, accountId, contactId, page);
}

async function membershipPage(db: Executor, accountId: number, contactId: number, page: PageRequest): Promise<ListResult<AudienceView>> {
  return listPage(
    page,
    () => repo.countMemberships(db, accountId, contactId),
    (limit, offset) => repo.membershipsOf(db, accountId, contactId, limit, offset),
    (rows) => rows.map(toView),
  );
}

/**
 * Locks the contact (PostgreSQL) so concurrent membership writes on one contact run one after
 * the other; SQLite already serializes write transactions.
 */
async function lockContact(trx: Trx, accountId: number, contactId: number): Promise<void> {
  if (!(await findContact(trx, accountId, contactId, { forUpdate: true }))) throw notFound('contact_not_found', contactId);
}

async function requireAudiences(trx: Trx, accountId: number, ids: number[]): Promise<void> {
  const existing = await repo.existingAudienceIds(trx, accountId, ids);
  const missing = ids.filter((id) => !existing.has(id));
  if (missing.length) throw new AppError('audience_not_found', `No marketing audience with id ${missing.join(', ')} in this account.`);
}

// Membership answers are the whole set: PUT caps it at MAX_MEMBERSHIPS, so one page holds it.
const WHOLE_SET: PageRequest = { page: 1, per_page: MAX_MEMBERSHIPS };

export async function replaceAudiences(
  deps: WriteDeps,
  accountId: number,
  contactId: number,
  audienceIds: number[],
  claim: IdempotencyClaim | null = null,
): Promise<ListResult<AudienceView>> {
  const wanted = [...new Set(audienceIds)];
  return deps.write(claim, async ({ trx, now }) => {
    await lockContact(trx, accountId, contactId);
    await requireAudiences(trx, accountId, wanted);
    const current = await repo.memberAudienceIds(trx, accountId, contactId);
    const wantedSet = new Set(wanted);
    await repo.removeMemberships(
      trx,
      accountId,
      contactId,
      [...current].filter((id) => !wantedSet.has(id)),
    );
    await repo.addMemberships(
      trx,
      accountId,
      contactId,
      wanted.filter((id) => !current.has(id)),
      now,
    );
    return membershipPage(trx, accountId, contactId, WHOLE_SET);
  });
}

/** Removes the contact from the given audiences, or from all when `audienceIds` is undefined. */
export async function removeAudiences(
  deps: WriteDeps,
  accountId: number,
  contactId: number,
  audienceIds: number[] | undefined,
  claim: IdempotencyClaim | null = null,
): Promise<ListResult<AudienceView>> {
  const ids = audienceIds === undefined ? null : [...new Set(audienceIds)];
  return deps.write(claim, async ({ trx }) => {
    await lockContact(trx, accountId, contactId);
    if (ids !== null) await requireAudiences(trx, accountId, ids);
    await repo.removeMemberships(trx, accountId, contactId, ids);
    return membershipPage(trx, accountId, contactId, WHOLE_SET);
  });
}
