import type { Executor } from '../../db/database.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { iso } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './contacts.repository.ts';
import type { ContactView, CreateContactInput } from './contacts.schemas.ts';
import type { IdempotencyClaim } from '../../lib/write.ts';
import { existsInAccount } from '../../lib/sql.ts';

export function toContactView(r: repo.ContactRow): ContactView {
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

export interface ContactQuery {
  org_id?: number;
  email?: string;
  q?: string;
}

export async function listContacts(
  db: Executor,
  accountId: number,
  query: ContactQuery,
  order: repo.ContactOrder,
  page: PageRequest,
): Promise<ListResult<ContactView>> {
  if (query.org_id !== undefined && !(await existsInAccount(db, 'orgs', accountId, query.org_id))) throw notFound('org_not_found', query.org_id);
  const filter: repo.ContactFilter = {
    orgId: query.org_id,
    // An empty filter value means "no filter", as an unset one does.
    emailLc: query.email ? query.email.toLowerCase() : undefined,
    q: query.q || undefined,
  };
  return listPage(
    page,
    () => repo.countContacts(db, accountId, filter),
    (limit, offset) => repo.listContacts(db, accountId, filter, order, limit, offset),
    (rows) => rows.map(toContactView),
  );
}

export async function getContact(db: Executor, accountId: number, id: number): Promise<ContactView> {
  const row = await repo.findContact(db, accountId, id);
  if (!row) throw notFound('contact_not_found', id);
  return toContactView(row);
}

export async function createContact(
  deps: Pick<ModuleDeps, 'write'>,
  accountId: number,
  input: CreateContactInput,
  claim: IdempotencyClaim | null = null,
): Promise<ContactView> {
  return deps.write(claim, async ({ trx, now }) => {
    if (!(await existsInAccount(trx, 'orgs', accountId, input.org_id))) throw notFound('org_not_found', input.org_id);
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
