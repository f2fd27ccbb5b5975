import { Type } from 'typebox';
import { IdParams } from '../../http/schemas.js';
import { pageOf } from '../../lib/pagination.js';
import { registerActivityRoutes } from './activities.routes.js';
import { DealStatusChange, LostReasonUsage } from './deals.history.js';
import { registerDealHistoryRoutes } from './deals.history.routes.js';
import { CreateDealBody, Deal, DealActivity, DealList, DealListQuery, DealSearchQuery, PatchDealBody } from './deals.schemas.js';
import * as service from './deals.service.js';
import * as writes from './deals.writes.js';
/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const dealSchemas = [Deal, DealActivity, DealStatusChange, LostReasonUsage];
const DealRef = Type.Ref('Deal');
export function registerDealRoutes(app, deps) {
    app.get('/deals', {
        config: { scope: 'deals:read', errors: ['org_not_found', 'user_not_found', 'contact_not_found'] },
        schema: {
            operationId: 'listDeals',
            summary: 'List, filter and sort deals',
            description: 'Sorting by `title` is case-insensitive (code-point order of the lower-cased title); by `status`, alphabetical. ' +
                'Ties are broken by id in the same direction. An `org_id` or `owner_user_id` outside the account is 404.',
            tags: ['deals'],
            querystring: DealListQuery,
            response: { 200: DealList },
        },
    }, async (request) => service.listDeals(deps.db, request.auth.accountId, request.query, pageOf(request.query)));
    app.get('/deals/search', {
        config: { scope: 'deals:read', errors: ['org_not_found'] },
        schema: {
            operationId: 'searchDeals',
            summary: 'Look up deals by payment customer id, contact e-mail or org',
            description: 'At least one of `payment_customer_id`, `contact_email`, `org_id` is required (422 naming all three otherwise); ' +
                'given together they all must match. Newest first.',
            tags: ['deals'],
            querystring: DealSearchQuery,
            response: { 200: DealList },
        },
    }, async (request) => service.searchDeals(deps.db, request.auth.accountId, request.query, pageOf(request.query)));
    app.get('/deals/:id', {
        config: { scope: 'deals:read', errors: ['deal_not_found'] },
        schema: { operationId: 'getDeal', summary: 'One deal', tags: ['deals'], params: IdParams, response: { 200: DealRef } },
    }, async (request) => service.getDeal(deps.db, request.auth.accountId, request.params.id));
    app.post('/deals', {
        config: { scope: '*', errors: ['org_not_found', 'user_not_found', 'contact_not_found'] },
        schema: {
            operationId: 'createDeal',
            summary: 'Create a deal',
            description: 'Records the initial status in the status history and emits `deal.created`. A deal created already `won` or ' +
                '`lost` also emits `deal.won` / `deal.lost` (after `deal.created`) and is closed by the caller at creation time. ' +
                '`contact_id` must be a contact of `org_id`. `lost_reason` is only accepted with status `lost`.',
            tags: ['extensions'],
            body: CreateDealBody,
            response: { 201: DealRef },
        },
    }, async (request, reply) => {
        const deal = await writes.createDeal(deps, { accountId: request.auth.accountId, userId: request.auth.session?.userId ?? null }, request.body);
        reply.code(201).header('Location', `/api/v1/deals/${deal.id}`);
        return deal;
    });
    app.patch('/deals/:id', {
        config: { scope: '*', errors: ['deal_not_found', 'user_not_found', 'contact_not_found'] },
        schema: {
            operationId: 'updateDeal',
            summary: 'Update a deal or move its status',
            description: 'Open statuses (new, qualified, proposal, negotiation) move to any other status; a closed deal (won, lost) may be ' +
                'reopened to an open status, and any deal may be marked won or lost (won → lost and lost → won are direct moves). Every status ' +
                'change is recorded. Moving to won or lost sets closed_at and closed_by_user_id (null for API keys) and emits ' +
                '`deal.won` / `deal.lost`; reopening clears closed_at, closed_by_user_id and lost_reason. `lost_reason` is only ' +
                'accepted when the deal is or becomes lost. `contact_id` must be a contact of the deal\'s org (404 `contact_not_found` ' +
                'when unknown; 422 `fields.contact_id = "not_in_org"` for another org\'s). Other edits emit no event. A body that changes nothing leaves ' +
                'updated_at as it was.',
            tags: ['extensions'],
            params: IdParams,
            body: PatchDealBody,
            response: { 200: DealRef },
        },
    }, async (request) => writes.patchDeal(deps, { accountId: request.auth.accountId, userId: request.auth.session?.userId ?? null }, request.params.id, request.body));
    registerActivityRoutes(app, deps);
    registerDealHistoryRoutes(app, deps);
}
