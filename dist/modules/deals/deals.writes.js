import { notFound, validationError } from '../../lib/errors.js';
import { emitDealCreated, emitStatusEvent } from './deals.events.js';
import * as repo from './deals.repository.js';
import { OPEN_STATUSES } from './deals.schemas.js';
import { getDealRow, requireRefs, toDealView } from './deals.service.js';
import { parseInstant, parseMoney } from './deals.values.js';
import { inTransaction } from '../idempotency/request-scope.js';
export const isOpen = (s) => OPEN_STATUSES.includes(s);
/** Body semantics the schema cannot express; all reasons at once, named by field. */
function checkFields(input) {
    const fields = {};
    const out = {};
    if (input.title !== undefined && input.title.trim() === '')
        fields.title = 'too_short';
    if (input.value !== undefined) {
        const cents = input.value === null ? null : parseMoney(input.value);
        if (typeof cents === 'string')
            fields.value = cents;
        else
            out.valueCents = cents;
    }
    if (input.currency !== undefined)
        out.currency = input.currency === null ? null : input.currency.toUpperCase();
    if (input.next_followup_at !== undefined) {
        const at = input.next_followup_at === null ? null : parseInstant(input.next_followup_at);
        if (at === null && input.next_followup_at !== null)
            fields.next_followup_at = 'invalid_date';
        else
            out.nextFollowupAt = at;
    }
    if (Object.keys(fields).length)
        throw validationError(fields);
    return out;
}
/** A deal's contact must be a contact of the deal's org: unknown (or another account's) is 404, another org's is 422. */
async function requireContactOfOrg(db, accountId, contactId, orgId) {
    const contactOrg = await repo.contactOrg(db, accountId, contactId);
    if (contactOrg === undefined)
        throw notFound('contact_not_found', contactId);
    if (contactOrg !== orgId)
        throw validationError({ contact_id: 'not_in_org' }, 'The contact belongs to another org than the deal.');
}
function lostReasonNotAllowed() {
    return validationError({ lost_reason: 'not_allowed' }, 'lost_reason is allowed only when the deal is (or becomes) lost.');
}
export async function createDeal(deps, actor, input) {
    const status = input.status ?? 'new';
    const v = checkFields(input);
    if (input.lost_reason && status !== 'lost')
        throw lostReasonNotAllowed();
    await requireRefs(deps.db, actor.accountId, { orgId: input.org_id, ownerUserId: input.owner_user_id });
    if (input.contact_id != null)
        await requireContactOfOrg(deps.db, actor.accountId, input.contact_id, input.org_id);
    const now = deps.clock.now();
    const closed = !isOpen(status);
    const deal = await inTransaction(deps.db, async (trx) => {
        const row = await repo.insertDeal(trx, {
            account_id: actor.accountId,
            org_id: input.org_id,
            contact_id: input.contact_id ?? null,
            owner_user_id: input.owner_user_id ?? null,
            title: input.title,
            title_lc: input.title.toLowerCase(),
            status,
            value_cents: v.valueCents ?? null,
            currency: v.currency ?? null,
            payment_customer_id: input.payment_customer_id ?? null,
            next_followup_at: v.nextFollowupAt ?? null,
            lost_reason_code: input.lost_reason?.code ?? null,
            lost_reason_label: input.lost_reason?.label ?? null,
            closed_at: closed ? now : null,
            closed_by_user_id: closed ? actor.userId : null,
            last_activity_at: now,
            created_at: now,
            updated_at: now,
        });
        await repo.insertStatusHistory(trx, {
            account_id: actor.accountId, deal_id: row.id, from_status: null, to_status: status, changed_by_user_id: actor.userId, changed_at: now,
        });
        const view = toDealView(row);
        // Created already closed: the deal was both created and marked won/lost, so both events fire, creation first.
        await emitDealCreated(trx, { accountId: actor.accountId, now }, view);
        await emitStatusEvent(trx, { accountId: actor.accountId, now }, view);
        return view;
    });
    deps.notifyEvents();
    return deal;
}
export async function patchDeal(deps, actor, id, input) {
    const v = checkFields(input);
    const now = deps.clock.now();
    const result = await inTransaction(deps.db, async (trx) => {
        const current = await getDealRow(trx, actor.accountId, id, { forUpdate: true });
        const to = input.status ?? current.status;
        const moving = to !== current.status;
        if (input.lost_reason && to !== 'lost')
            throw lostReasonNotAllowed();
        if (input.owner_user_id != null)
            await requireRefs(trx, actor.accountId, { ownerUserId: input.owner_user_id });
        if (input.contact_id != null)
            await requireContactOfOrg(trx, actor.accountId, input.contact_id, Number(current.org_id));
        const set = {};
        if (input.title !== undefined && input.title !== current.title)
            Object.assign(set, { title: input.title, title_lc: input.title.toLowerCase() });
        if (input.owner_user_id !== undefined && input.owner_user_id !== current.owner_user_id)
            set.owner_user_id = input.owner_user_id;
        if (input.contact_id !== undefined && input.contact_id !== current.contact_id)
            set.contact_id = input.contact_id;
        if (v.valueCents !== undefined && v.valueCents !== current.value_cents)
            set.value_cents = v.valueCents;
        if (v.currency !== undefined && v.currency !== current.currency)
            set.currency = v.currency;
        if (v.nextFollowupAt !== undefined && v.nextFollowupAt !== current.next_followup_at)
            set.next_followup_at = v.nextFollowupAt;
        if (moving) {
            set.status = to;
            if (isOpen(to)) {
                // Reopening (or moving among open statuses) leaves nothing of a previous close behind.
                Object.assign(set, { closed_at: null, closed_by_user_id: null, lost_reason_code: null, lost_reason_label: null });
            }
            else {
                Object.assign(set, { closed_at: now, closed_by_user_id: actor.userId });
                Object.assign(set, { lost_reason_code: input.lost_reason?.code ?? null, lost_reason_label: input.lost_reason?.label ?? null });
            }
        }
        else if (input.lost_reason !== undefined && to === 'lost') {
            const code = input.lost_reason?.code ?? null;
            const label = input.lost_reason?.label ?? null;
            if (code !== current.lost_reason_code || label !== current.lost_reason_label)
                Object.assign(set, { lost_reason_code: code, lost_reason_label: label });
        }
        if (Object.keys(set).length === 0)
            return { view: toDealView(current), emitted: false };
        set.updated_at = now;
        const row = await repo.updateDeal(trx, actor.accountId, id, set);
        const view = toDealView(row);
        if (!moving)
            return { view, emitted: false };
        await repo.insertStatusHistory(trx, {
            account_id: actor.accountId, deal_id: id, from_status: current.status, to_status: to, changed_by_user_id: actor.userId, changed_at: now,
        });
        await emitStatusEvent(trx, { accountId: actor.accountId, now }, view);
        return { view, emitted: !isOpen(to) };
    });
    if (result.emitted)
        deps.notifyEvents();
    return result.view;
}
