import type { Executor } from '../../db/database.ts';
import { iso } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import { offsetOf, paginate, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './orgs.repository.ts';
import type { OrgView } from './orgs.schemas.ts';

export async function toOrgViews(db: Executor, accountId: number, rows: repo.OrgRow[]): Promise<OrgView[]> {
  const links = await repo.externalIdsOf(db, accountId, rows.map((r) => r.id));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    domain: r.domain,
    external_ids: links.filter((l) => l.org_id === r.id).map(({ source_app, external_org_id }) => ({ source_app, external_org_id })),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  }));
}

export async function listOrgs(db: Executor, accountId: number, filter: repo.OrgFilter, page: PageRequest): Promise<ListResult<OrgView>> {
  const total = await repo.countOrgs(db, accountId, filter);
  const offset = offsetOf(page);
  const rows = offset < total ? await repo.listOrgs(db, accountId, filter, page.per_page, offset) : [];
  return { data: await toOrgViews(db, accountId, rows), pagination: paginate(page, total) };
}

export async function getOrg(db: Executor, accountId: number, id: number): Promise<OrgView> {
  const row = await repo.findOrg(db, accountId, id);
  if (!row) throw notFound('org_not_found', id);
  return (await toOrgViews(db, accountId, [row]))[0];
}
