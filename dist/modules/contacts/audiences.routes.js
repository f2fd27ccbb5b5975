import { IdParams } from '../../http/schemas.js';
import { API_PREFIX } from '../../http/openapi.js';
import { pageOf } from '../../lib/pagination.js';
import * as service from './audiences.service.js';
import { AudienceList, AudienceListQuery, CreateAudienceBody, MarketingAudience } from './contacts.schemas.js';
/** The account's marketing audiences (memberships are under /contacts/{id}/marketing-audiences). */
export function registerAudienceRoutes(app, deps) {
    app.get('/marketing-audiences', {
        config: { scope: 'contacts:read' },
        schema: {
            operationId: 'listMarketingAudiences',
            summary: 'List marketing audiences',
            description: 'The marketing audiences of the account, newest first.',
            tags: ['contacts'],
            querystring: AudienceListQuery,
            response: { 200: AudienceList },
        },
    }, async (request) => service.listAudiences(deps.db, request.auth.accountId, pageOf(request.query)));
    app.get('/marketing-audiences/:id', {
        config: { scope: 'contacts:read', errors: ['audience_not_found'] },
        schema: {
            operationId: 'getMarketingAudience',
            summary: 'Get one marketing audience',
            tags: ['contacts'],
            params: IdParams,
            response: { 200: MarketingAudience },
        },
    }, async (request) => service.getAudience(deps.db, request.auth.accountId, request.params.id));
    app.post('/marketing-audiences', {
        config: { scope: '*', errors: ['conflict'] },
        schema: {
            operationId: 'createMarketingAudience',
            summary: 'Create a marketing audience',
            description: 'A name already used by an audience of the account is 409 `conflict`.',
            tags: ['contacts'],
            body: CreateAudienceBody,
            response: { 201: MarketingAudience },
        },
    }, async (request, reply) => {
        const audience = await service.createAudience(deps, request.auth.accountId, request.body.name);
        return reply.code(201).header('Location', `${API_PREFIX}/marketing-audiences/${audience.id}`).send(audience);
    });
}
