import type { Executor } from '../../db/database.ts';
import type { OrgsTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';
export type OrgRow = Selectable<OrgsTable>;
export interface OrgFilter {
    q?: string;
}
/** Without a search term the total is the kept count (list_counts). */
export declare function countOrgs(db: Executor, accountId: number, f: OrgFilter): Promise<number>;
export declare function listOrgs(db: Executor, accountId: number, f: OrgFilter, limit: number, offset: number): Promise<OrgRow[]>;
export declare function findOrg(db: Executor, accountId: number, id: number): Promise<OrgRow | undefined>;
export declare function externalIdsOf(db: Executor, accountId: number, orgIds: number[]): Promise<{
    external_org_id: string;
    org_id: number;
    source_app: string;
}[]>;
export declare function findMapping(db: Executor, accountId: number, sourceApp: string, externalOrgId: string): Promise<{
    org_id: number;
} | undefined>;
/**
 * Links the pair unless it is linked already. ON CONFLICT DO NOTHING (not a caught error) so a
 * concurrent loser keeps its transaction usable on PostgreSQL; false means someone else holds the pair.
 */
export declare function insertMappingIfAbsent(db: Executor, row: {
    account_id: number;
    org_id: number;
    source_app: string;
    external_org_id: string;
    created_at: number;
}): Promise<boolean>;
export declare function orgIdsByContactEmail(db: Executor, accountId: number, emailLc: string): Promise<number[]>;
export declare function orgIdsByName(db: Executor, accountId: number, nameLc: string): Promise<number[]>;
/** Of the given orgs, those with a contact of this (lower-cased) name. */
export declare function orgIdsWithContactName(db: Executor, accountId: number, orgIds: number[], nameLc: string): Promise<number[]>;
export declare function insertOrg(db: Executor, row: {
    account_id: number;
    name: string;
    name_lc: string;
    domain: string | null;
    created_at: number;
    updated_at: number;
}): Promise<{
    account_id: number;
    created_at: number;
    domain: string | null;
    id: number;
    name: string;
    name_lc: string;
    updated_at: number;
}>;
export declare function touchOrg(db: Executor, accountId: number, id: number, now: number): Promise<void>;
