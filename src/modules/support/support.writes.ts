import type { Executor } from '../../db/database.ts';
import type { TicketStatus } from '../../db/schema.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { notFound, validationError } from '../../lib/errors.ts';
import { resolveOrgInTrx } from '../orgs/orgs.resolve.ts';
import * as repo from './support.repository.ts';
import { MAX_METADATA_BYTES, MAX_METADATA_DEPTH, metadataProblem } from '../../lib/metadata.ts';
import type { CreateLogInput, CreateTicketInput, SupportLogView, TicketView, UpdateTicketInput } from './support.schemas.ts';
import { toLogView, toTicketView } from './support.service.ts';
import type { IdempotencyClaim, WriteContext } from '../../lib/write.ts';
import { existsInAccount } from '../../lib/sql.ts';

type Deps = Pick<ModuleDeps, 'write'>;

function slogOf(t: repo.TicketRow) {
  return { slog_id: Number(t.id), slog: { id: Number(t.id), title: t.title, status: t.status } };
}

/** `authorUserId`: the signed-in console user who wrote it; null for an API key. */
async function writeLog(
  w: WriteContext,
  accountId: number,
  ticket: repo.TicketRow,
  note: string,
  channel: string,
  authorUserId: number | null,
): Promise<repo.LogRow> {
  const log = await repo.insertLog(w.trx, {
    account_id: accountId,
    ticket_id: ticket.id,
    org_id: ticket.org_id,
    note,
    channel,
    author_user_id: authorUserId,
    created_at: w.now,
  });
  w.emit({
    accountId,
    orgId: Number(ticket.org_id),
    type: 'support.log.created',
    entity: { support_log_id: Number(log.id), support_log: { id: Number(log.id), note: log.note, channel: log.channel } },
  });
  return log;
}

/** The contact of a new ticket: contact_id (which must belong to the org) wins; else contact_email, found in the org or created there. */
async function contactFor(trx: Executor, accountId: number, orgId: number, input: CreateTicketInput, now: number): Promise<number> {
  if (input.contact_id !== undefined) {
    const contact = await repo.findContact(trx, accountId, input.contact_id);
    if (!contact) throw notFound('contact_not_found', input.contact_id);
    if (Number(contact.org_id) !== orgId) throw validationError({ contact_id: 'not_in_org' }, `Contact ${input.contact_id} belongs to another organization.`);
    return Number(contact.id);
  }
  const email = input.contact_email!;
  const existing = await repo.findContactByEmail(trx, accountId, orgId, email.toLowerCase());
  if (existing) return Number(existing.id);
  const name = input.contact_name ?? null;
  const created = await repo.insertContact(trx, {
    account_id: accountId,
    org_id: orgId,
    name,
    name_lc: name?.toLowerCase() ?? null,
    email,
    email_lc: email.toLowerCase(),
    phone: null,
    title: null,
    created_at: now,
    updated_at: now,
  });
  return Number(created.id);
}

/** The org of a new ticket: org_id when given (the console's way), else the (source_app, external_org_id) pair resolved. */
async function orgOfNewTicket(trx: Executor, accountId: number, input: CreateTicketInput, now: number): Promise<number> {
  if (input.org_id !== undefined) {
    if (!(await existsInAccount(trx, 'orgs', accountId, input.org_id))) throw notFound('org_not_found', input.org_id);
    return input.org_id;
  }
  const { org } = await resolveOrgInTrx(trx, accountId, { source_app: input.source_app, external_org_id: input.external_org_id! }, input, now);
  return Number(org.id);
}

/**
 * Creates a ticket and its first log in one transaction with their two events; the org is
 * resolved (and linked on first use) in that same transaction, so a failure leaves nothing.
 */
export async function createTicket(
  deps: Deps,
  accountId: number,
  input: CreateTicketInput,
  authorUserId: number | null = null,
  claim: IdempotencyClaim | null = null,
): Promise<TicketView & { first_log: SupportLogView }> {
  if (input.contact_id === undefined && input.contact_email === undefined) {
    throw validationError({ contact_email: 'required' }, 'contact_email is required unless contact_id is sent.');
  }
  const problem = input.metadata_json === undefined ? null : metadataProblem(input.metadata_json);
  if (problem) {
    throw validationError(
      { metadata_json: problem },
      `metadata_json is over ${MAX_METADATA_DEPTH} levels deep or ${MAX_METADATA_BYTES} bytes once serialized.`,
    );
  }
  const metadata = input.metadata_json === undefined ? null : JSON.stringify(input.metadata_json);
  return deps.write(claim, async (w) => {
    const { trx, now } = w;
    const orgId = await orgOfNewTicket(trx, accountId, input, now);
    const contactId = await contactFor(trx, accountId, orgId, input, now);
    const channel = input.channel ?? 'api';
    const ticket = await repo.insertTicket(trx, {
      account_id: accountId,
      org_id: orgId,
      contact_id: contactId,
      owner_user_id: null,
      title: input.title,
      title_lc: input.title.toLowerCase(),
      details: input.details,
      status: 'open',
      channel,
      external_reference: input.external_reference ?? null,
      metadata,
      source_app: input.source_app,
      created_at: now,
      updated_at: now,
      closed_at: null,
    });
    w.emit({ accountId, orgId, type: 'support.ticket.opened', entity: slogOf(ticket) });
    const log = await writeLog(w, accountId, ticket, input.note ?? input.details, channel, authorUserId);
    return { ...toTicketView(ticket), first_log: toLogView(log) };
  });
}

/**
 * A new owner of tickets: a user of the account (404 otherwise, as for any id of another account),
 * active and support-enabled (422 naming `owner_user_id` otherwise).
 */
async function assertCanOwnTickets(trx: Executor, accountId: number, userId: number): Promise<void> {
  const user = await repo.findOwnerCandidate(trx, accountId, userId);
  if (!user) throw notFound('user_not_found', userId);
  if (!user.is_active) throw validationError({ owner_user_id: 'user_inactive' }, `User ${userId} is deactivated and cannot own tickets.`);
  if (!user.support_enabled) throw validationError({ owner_user_id: 'not_support_enabled' }, `User ${userId} is not support-enabled and cannot own tickets.`);
}

/**
 * Status, owner and title changes. Moving to `closed` emits support.ticket.closed and sets
 * closed_at; leaving `closed` emits support.ticket.opened and clears it; open ↔ pending and
 * owner or title changes emit nothing. Sending the current values changes nothing (the current owner
 * is kept even if no longer eligible; only a new owner is checked).
 */
export async function updateTicket(
  deps: Deps,
  accountId: number,
  id: number,
  input: UpdateTicketInput,
  claim: IdempotencyClaim | null = null,
): Promise<TicketView> {
  return deps.write(claim, async (w) => {
    const { trx, now } = w;
    // Locked, so two concurrent closes see one move (and emit one event).
    const ticket = await repo.findTicket(trx, accountId, id, { forUpdate: true });
    if (!ticket) throw notFound('ticket_not_found', id);
    const changes: Parameters<typeof repo.updateTicket>[3] = {};
    if (input.title !== undefined && input.title !== ticket.title) Object.assign(changes, { title: input.title, title_lc: input.title.toLowerCase() });
    if (input.owner_user_id !== undefined && input.owner_user_id !== (ticket.owner_user_id === null ? null : Number(ticket.owner_user_id))) {
      if (input.owner_user_id !== null) await assertCanOwnTickets(trx, accountId, input.owner_user_id);
      changes.owner_user_id = input.owner_user_id;
    }
    const from: TicketStatus = ticket.status;
    const to = input.status ?? from;
    if (to !== from) Object.assign(changes, { status: to, closed_at: to === 'closed' ? now : null });
    if (Object.keys(changes).length === 0) return toTicketView(ticket);
    const updated = await repo.updateTicket(trx, accountId, id, { ...changes, updated_at: now });
    const orgId = Number(updated.org_id);
    if (to === 'closed' && from !== 'closed') {
      w.emit({ accountId, orgId, type: 'support.ticket.closed', entity: slogOf(updated) });
    } else if (from === 'closed' && to !== 'closed') {
      w.emit({ accountId, orgId, type: 'support.ticket.opened', entity: slogOf(updated) });
    }
    return toTicketView(updated);
  });
}

/** Adds a log to a ticket (closed ones too) and counts as an update of the ticket (updated_at). */
export async function addLog(
  deps: Deps,
  accountId: number,
  ticketId: number,
  input: CreateLogInput,
  authorUserId: number | null = null,
  claim: IdempotencyClaim | null = null,
): Promise<SupportLogView> {
  return deps.write(claim, async (w) => {
    const ticket = await repo.findTicket(w.trx, accountId, ticketId);
    if (!ticket) throw notFound('ticket_not_found', ticketId);
    await repo.updateTicket(w.trx, accountId, ticketId, { updated_at: w.now });
    return toLogView(await writeLog(w, accountId, ticket, input.note, input.channel ?? 'api', authorUserId));
  });
}
