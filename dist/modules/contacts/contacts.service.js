import { iso } from '../../lib/clock.js';
import { notFound } from '../../lib/errors.js';
import { listPage } from '../../lib/pagination.js';
import * as repo from './contacts.repository.js';
import { inTransaction } from '../idempotency/request-scope.js';
import { existsInAccount } from '../../lib/sql.js';
export function toContactView(r) {
    return {
        id: Number(r.id),
        org_id: Number(r.org_id),
        name: r.name,
        email: r.email,
        phone: r.phone,
        title: r.title,
        created_at: iso(r.created_at),
        updated_at: iso(r.updated_at),
    };
}
export async function listContacts(db, accountId, query, order, page) {
    if (query.org_id !== undefined && !(await existsInAccount(db, 'orgs', accountId, query.org_id)))
        throw notFound('org_not_found', query.org_id);
    const filter = {
        orgId: query.org_id,
        // An empty filter value means "no filter", as an unset one does.
        emailLc: query.email ? query.email.toLowerCase() : undefined,
        q: query.q || undefined,
    };
    return listPage(page, () => repo.countContacts(db, accountId, filter), (limit, offset) => repo.listContacts(db, accountId, filter, order, limit, offset), (rows) => rows.map(toContactView));
}
export async function getContact(db, accountId, id) {
    const row = await repo.findContact(db, accountId, id);
    if (!row)
        throw notFound('contact_not_found', id);
    return toContactView(row);
}
export async function createContact(deps, accountId, input) {
    const now = deps.clock.now();
    return inTransaction(deps.db, async (trx) => {
        if (!(await existsInAccount(trx, 'orgs', accountId, input.org_id)))
            throw notFound('org_not_found', input.org_id);
        const name = input.name ?? null;
        const email = input.email ?? null;
        const row = await repo.insertContact(trx, {
            account_id: accountId,
            org_id: input.org_id,
            name,
            name_lc: name === null ? null : name.toLowerCase(),
            email,
            email_lc: email === null ? null : email.toLowerCase(),
            phone: input.phone ?? null,
            title: input.title ?? null,
            created_at: now,
            updated_at: now,
        });
        return toContactView(row);
    });
}
