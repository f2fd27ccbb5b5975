import type { Executor } from '../../db/database.ts';
import * as repo from './orgs.repository.ts';
export interface ResolveHints {
    org_name?: string;
    contact_email?: string;
    contact_name?: string;
}
export interface ResolvedOrg {
    status: 'mapped' | 'linked';
    org: repo.OrgRow;
}
/** How the hints combine; the resolve route's description repeats it for integrators. */
export declare const RESOLVE_RULES: string;
/**
 * Resolves (source_app, external_org_id) to an org of the account inside the caller's
 * transaction, linking the pair on first use from the hints (see RESOLVE_RULES). Ticket
 * creation calls it too, so a link made for a ticket that then fails is rolled back with it.
 */
export declare function resolveOrgInTrx(trx: Executor, accountId: number, pair: {
    source_app: string;
    external_org_id: string;
}, hints: ResolveHints, now: number): Promise<ResolvedOrg>;
