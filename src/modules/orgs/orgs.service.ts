import type { Executor } from '../../db/database.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { iso } from '../../lib/clock.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { listPage, type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './orgs.repository.ts';
import { resolveOrgInTrx } from './orgs.resolve.ts';
import type { CreateOrgInput, OrgView, ResolveInput } from './orgs.schemas.ts';
import type { IdempotencyClaim } from '../../lib/write.ts';

type Deps = Pick<ModuleDeps, 'write'>;

export async function toOrgViews(db: Executor, accountId: number, rows: repo.OrgRow[]): Promise<OrgView[]> {
  const links = await repo.externalIdsOf(
    db,
    accountId,
    rows.map((r) => r.id),
  );
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
  return listPage(
    page,
    () => repo.countOrgs(db, accountId, filter),
    (limit, offset) => repo.listOrgs(db, accountId, filter, limit, offset),
    (rows) => toOrgViews(db, accountId, rows),
  );
}

export async function getOrg(db: Executor, accountId: number, id: number): Promise<OrgView> {
  const row = await repo.findOrg(db, accountId, id);
  if (!row) throw notFound('org_not_found', id);
  return (await toOrgViews(db, accountId, [row]))[0];
}

export async function resolveOrg(
  deps: Deps,
  accountId: number,
  input: ResolveInput,
  claim: IdempotencyClaim | null = null,
): Promise<{ status: 'mapped' | 'linked'; org: OrgView }> {
  return deps.write(claim, async ({ trx, now }) => {
    const { status, org } = await resolveOrgInTrx(trx, accountId, input, input, now);
    return { status, org: (await toOrgViews(trx, accountId, [org]))[0] };
  });
}

function conflict(sourceApp: string, externalOrgId: string): AppError {
  return new AppError('external_id_conflict', `(${sourceApp}, ${externalOrgId}) is already linked to another organization.`);
}

/** Links a pair to an org by hand; the same link again is a no-op, a link to another org a conflict. */
export async function linkExternalId(
  deps: Deps,
  accountId: number,
  orgId: number,
  pair: { source_app: string; external_org_id: string },
  claim: IdempotencyClaim | null = null,
): Promise<OrgView> {
  return deps.write(claim, async ({ trx, now }) => {
    const org = await repo.findOrg(trx, accountId, orgId);
    if (!org) throw notFound('org_not_found', orgId);
    const row = { account_id: accountId, org_id: orgId, source_app: pair.source_app, external_org_id: pair.external_org_id, created_at: now };
    if (await repo.insertMappingIfAbsent(trx, row)) {
      await repo.touchOrg(trx, accountId, orgId, now);
    } else {
      const existing = await repo.findMapping(trx, accountId, pair.source_app, pair.external_org_id);
      if (Number(existing?.org_id) !== orgId) throw conflict(pair.source_app, pair.external_org_id);
    }
    return getOrg(trx, accountId, orgId);
  });
}

export async function createOrg(deps: Deps, accountId: number, input: CreateOrgInput, claim: IdempotencyClaim | null = null): Promise<OrgView> {
  return deps.write(claim, async ({ trx, now }) => {
    const org = await repo.insertOrg(trx, {
      account_id: accountId,
      name: input.name,
      name_lc: input.name.toLowerCase(),
      domain: input.domain ?? null,
      created_at: now,
      updated_at: now,
    });
    for (const pair of input.external_ids ?? []) {
      const row = { account_id: accountId, org_id: org.id, source_app: pair.source_app, external_org_id: pair.external_org_id, created_at: now };
      if (!(await repo.insertMappingIfAbsent(trx, row))) throw conflict(pair.source_app, pair.external_org_id);
    }
    return (await toOrgViews(trx, accountId, [org]))[0];
  });
}
