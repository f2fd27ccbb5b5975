import type { Db, Executor } from '../../db/database.ts';
import { type ListResult, type PageRequest } from '../../lib/pagination.ts';
import * as repo from './orgs.repository.ts';
import type { CreateOrgInput, OrgView, ResolveInput } from './orgs.schemas.ts';
export declare function toOrgViews(db: Executor, accountId: number, rows: repo.OrgRow[]): Promise<OrgView[]>;
export declare function listOrgs(db: Executor, accountId: number, filter: repo.OrgFilter, page: PageRequest): Promise<ListResult<OrgView>>;
export declare function getOrg(db: Executor, accountId: number, id: number): Promise<OrgView>;
export declare function resolveOrg(db: Db, accountId: number, input: ResolveInput, now: number): Promise<{
    status: 'mapped' | 'linked';
    org: OrgView;
}>;
/** Links a pair to an org by hand; the same link again is a no-op, a link to another org a conflict. */
export declare function linkExternalId(db: Db, accountId: number, orgId: number, pair: {
    source_app: string;
    external_org_id: string;
}, now: number): Promise<OrgView>;
export declare function createOrg(db: Db, accountId: number, input: CreateOrgInput, now: number): Promise<OrgView>;
