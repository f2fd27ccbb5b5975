import type { Executor } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
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
export const RESOLVE_RULES =
  'A pair already linked answers `mapped` (the hints are then ignored). Otherwise at least one of `org_name` and ' +
  '`contact_email` is needed (else 422 `org_lookup_required`). Candidates: `contact_email` (case-insensitive, exact) ' +
  'gives the orgs having a contact with that e-mail; `org_name` (case-insensitive, exact, surrounding spaces ignored) ' +
  'gives the orgs with that name. When both hints are sent and both find orgs, the candidates are the orgs both found; ' +
  'if they found no org in common, the hints point at different orgs and every org either found is a candidate. ' +
  'When only one hint finds orgs, its orgs are the candidates. With several candidates, `contact_name` ' +
  '(case-insensitive, exact) keeps those having a contact of that name, if any has. Exactly one candidate: the pair is ' +
  'linked to it (`linked`); several: 409 `org_ambiguous`; none: 404 `org_not_found`. Two simultaneous first resolves ' +
  'of one pair link it once: the later one answers `mapped`.';

function clean(text: string | undefined): string | undefined {
  const t = text?.trim();
  return t ? t.toLowerCase() : undefined;
}

async function candidates(db: Executor, accountId: number, hints: ResolveHints): Promise<number[]> {
  const email = clean(hints.contact_email);
  const name = clean(hints.org_name);
  const byEmail = email ? await repo.orgIdsByContactEmail(db, accountId, email) : [];
  const byName = name ? await repo.orgIdsByName(db, accountId, name) : [];
  let found: number[];
  if (byEmail.length && byName.length) {
    const both = byEmail.filter((id) => byName.includes(id));
    found = both.length ? both : [...new Set([...byEmail, ...byName])];
  } else {
    found = byEmail.length ? byEmail : byName;
  }
  const contactName = clean(hints.contact_name);
  if (found.length > 1 && contactName) {
    const narrowed = await repo.orgIdsWithContactName(db, accountId, found, contactName);
    if (narrowed.length) found = narrowed;
  }
  return found;
}

/**
 * Resolves (source_app, external_org_id) to an org of the account inside the caller's
 * transaction, linking the pair on first use from the hints (see RESOLVE_RULES). Ticket
 * creation calls it too, so a link made for a ticket that then fails is rolled back with it.
 */
export async function resolveOrgInTrx(
  trx: Executor,
  accountId: number,
  pair: { source_app: string; external_org_id: string },
  hints: ResolveHints,
  now: number,
): Promise<ResolvedOrg> {
  const mapped = await mappedOrg(trx, accountId, pair);
  if (mapped) return { status: 'mapped', org: mapped };
  if (!clean(hints.org_name) && !clean(hints.contact_email)) {
    throw new AppError('org_lookup_required', 'This (source_app, external_org_id) pair is not linked yet: send org_name or contact_email to look the org up.');
  }
  const found = await candidates(trx, accountId, hints);
  if (found.length === 0) throw new AppError('org_not_found', 'No organization matches the lookup hints.');
  if (found.length > 1) {
    throw new AppError(
      'org_ambiguous',
      `${found.length} organizations match the lookup hints; add contact_name or link the pair with PUT /orgs/{org_id}/external-ids.`,
    );
  }
  const linked = await repo.insertMappingIfAbsent(trx, { account_id: accountId, org_id: found[0], ...pairOf(pair), created_at: now });
  if (!linked) {
    // A concurrent request linked the pair first: its link stands.
    const winner = await mappedOrg(trx, accountId, pair);
    if (winner) return { status: 'mapped', org: winner };
    throw new AppError('conflict', 'The pair was linked concurrently; retry.');
  }
  await repo.touchOrg(trx, accountId, found[0], now);
  const org = await repo.findOrg(trx, accountId, found[0]);
  return { status: 'linked', org: org! };
}

function pairOf(pair: { source_app: string; external_org_id: string }) {
  return { source_app: pair.source_app, external_org_id: pair.external_org_id };
}

async function mappedOrg(db: Executor, accountId: number, pair: { source_app: string; external_org_id: string }) {
  const link = await repo.findMapping(db, accountId, pair.source_app, pair.external_org_id);
  return link ? repo.findOrg(db, accountId, Number(link.org_id)) : undefined;
}
