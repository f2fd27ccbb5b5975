import { sql } from 'kysely';
import { AppError, notFound } from '../../lib/errors.js';
import { listPage } from '../../lib/pagination.js';
import { isUniqueViolation } from '../../lib/sql.js';
import * as repo from './audiences.repository.js';
import { findContact } from './contacts.repository.js';
import { MAX_MEMBERSHIPS } from './contacts.schemas.js';
import { inTransaction } from '../idempotency/request-scope.js';
const toView = (r) => ({ id: Number(r.id), name: r.name });
export async function listAudiences(db, accountId, page) {
    return listPage(page, () => repo.countAudiences(db, accountId), (limit, offset) => repo.listAudiences(db, accountId, limit, offset), (rows) => rows.map(toView));
}
export async function getAudience(db, accountId, id) {
    const row = await repo.findAudience(db, accountId, id);
    if (!row)
        throw notFound('audience_not_found', id);
    return toView(row);
}
function nameTaken() {
    return new AppError('conflict', 'A marketing audience with this name already exists in the account.');
}
export async function createAudience(deps, accountId, name) {
    if (await repo.findAudienceByName(deps.db, accountId, name))
        throw nameTaken();
    try {
        return toView(await inTransaction(deps.db, (trx) => repo.insertAudience(trx, { account_id: accountId, name, created_at: deps.clock.now() })));
    }
    catch (err) {
        if (isUniqueViolation(err))
            throw nameTaken();
        throw err;
    }
}
export async function contactAudiences(db, accountId, contactId, page) {
    if (!(await findContact(db, accountId, contactId)))
        throw notFound('contact_not_found', contactId);
    return membershipPage(db, accountId, contactId, page);
}
async function membershipPage(db, accountId, contactId, page) {
    return listPage(page, () => repo.countMemberships(db, accountId, contactId), (limit, offset) => repo.membershipsOf(db, accountId, contactId, limit, offset), (rows) => rows.map(toView));
}
/**
 * Locks the contact (PostgreSQL) so concurrent membership writes on one contact run one after
 * the other; SQLite already serializes write transactions.
 */
async function lockContact(trx, dialect, accountId, contactId) {
    const found = dialect === 'postgres'
        ? await sql `select id from contacts where account_id = ${accountId} and id = ${contactId} for update`.execute(trx).then((r) => r.rows[0])
        : await findContact(trx, accountId, contactId);
    if (!found)
        throw notFound('contact_not_found', contactId);
}
async function requireAudiences(trx, accountId, ids) {
    const existing = await repo.existingAudienceIds(trx, accountId, ids);
    const missing = ids.filter((id) => !existing.has(id));
    if (missing.length)
        throw new AppError('audience_not_found', `No marketing audience with id ${missing.join(', ')} in this account.`);
}
// Membership answers are the whole set: PUT caps it at MAX_MEMBERSHIPS, so one page holds it.
const WHOLE_SET = { page: 1, per_page: MAX_MEMBERSHIPS };
export async function replaceAudiences(deps, accountId, contactId, audienceIds) {
    const wanted = [...new Set(audienceIds)];
    return inTransaction(deps.db, async (trx) => {
        await lockContact(trx, deps.dialect, accountId, contactId);
        await requireAudiences(trx, accountId, wanted);
        const current = await repo.memberAudienceIds(trx, accountId, contactId);
        const wantedSet = new Set(wanted);
        await repo.removeMemberships(trx, accountId, contactId, [...current].filter((id) => !wantedSet.has(id)));
        await repo.addMemberships(trx, accountId, contactId, wanted.filter((id) => !current.has(id)), deps.clock.now());
        return membershipPage(trx, accountId, contactId, WHOLE_SET);
    });
}
/** Removes the contact from the given audiences, or from all when `audienceIds` is undefined. */
export async function removeAudiences(deps, accountId, contactId, audienceIds) {
    const ids = audienceIds === undefined ? null : [...new Set(audienceIds)];
    return inTransaction(deps.db, async (trx) => {
        await lockContact(trx, deps.dialect, accountId, contactId);
        if (ids !== null)
            await requireAudiences(trx, accountId, ids);
        await repo.removeMemberships(trx, accountId, contactId, ids);
        return membershipPage(trx, accountId, contactId, WHOLE_SET);
    });
}
