import { iso } from '../../lib/clock.js';
import { hashPassword } from '../../lib/crypto.js';
import { AppError, notFound } from '../../lib/errors.js';
import { listPage } from '../../lib/pagination.js';
import { isUniqueViolation } from '../../lib/sql.js';
import * as repo from './users.repository.js';
import { inTransaction } from '../idempotency/request-scope.js';
export function toUserView(r) {
    return {
        id: Number(r.id),
        email: r.email,
        display_name: r.display_name,
        role: r.role,
        is_active: Boolean(r.is_active),
        support_enabled: Boolean(r.support_enabled),
        created_at: iso(r.created_at),
    };
}
export async function listUsers(db, accountId, filter, order, page) {
    return listPage(page, () => repo.countUsers(db, accountId, filter), (limit, offset) => repo.listUsers(db, accountId, filter, order, limit, offset), (rows) => rows.map(toUserView));
}
export async function getUser(db, accountId, id) {
    const row = await repo.findUser(db, accountId, id);
    if (!row)
        throw notFound('user_not_found', id);
    return toUserView(row);
}
function emailTaken() {
    return new AppError('conflict', 'A team user with this email already exists in the account.');
}
export async function createUser(deps, accountId, input) {
    const emailLc = input.email.toLowerCase();
    // Checked before hashing so a duplicate costs no scrypt work; the unique key settles races.
    if (await repo.findUserByEmail(deps.db, accountId, emailLc))
        throw emailTaken();
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    const now = deps.clock.now();
    try {
        const row = await inTransaction(deps.db, (trx) => repo.insertUserReturning(trx, {
            account_id: accountId,
            email: input.email,
            email_lc: emailLc,
            display_name: input.display_name,
            role: input.role ?? 'member',
            is_active: input.is_active ?? true,
            support_enabled: input.support_enabled ?? false,
            password_hash: passwordHash,
            created_at: now,
            updated_at: now,
        }));
        return toUserView(row);
    }
    catch (err) {
        if (isUniqueViolation(err))
            throw emailTaken();
        throw err;
    }
}
