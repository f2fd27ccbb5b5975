import type { App } from '../../http/types.ts';
import { recordRoute } from '../../http/read-routes.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { writeRoute } from '../../http/write-routes.ts';
import { pageOf } from '../../lib/pagination.ts';
import * as service from './audiences.service.ts';
import { AudienceList, AudienceListQuery, CreateAudienceBody, MarketingAudience } from './contacts.schemas.ts';

/** The account's marketing audiences (memberships are under /contacts/{id}/marketing-audiences). */
export function registerAudienceRoutes(app: App, deps: ModuleDeps): void {
  app.get(
    '/marketing-audiences',
    {
      config: { scope: 'contacts:read' },
      schema: {
        operationId: 'listMarketingAudiences',
        summary: 'List marketing audiences',
        description: 'The marketing audiences of the account, newest first.',
        tags: ['contacts'],
        querystring: AudienceListQuery,
        response: { 200: AudienceList },
      },
    },
    async (request) => service.listAudiences(deps.db, request.auth.accountId, pageOf(request.query)),
  );

  recordRoute(app, '/marketing-audiences/:id', {
    scope: 'contacts:read',
    errors: ['audience_not_found'],
    operationId: 'getMarketingAudience',
    summary: 'Get one marketing audience',
    tags: ['contacts'],
    params: IdParams,
    response: MarketingAudience,
    get: (accountId, params) => service.getAudience(deps.db, accountId, params.id),
  });

  writeRoute(app, '/marketing-audiences', {
    method: 'POST',
    scope: '*',
    errors: ['conflict'],
    operationId: 'createMarketingAudience',
    summary: 'Create a marketing audience',
    description: 'A name already used by an audience of the account is 409 `conflict`.',
    tags: ['contacts'],
    body: CreateAudienceBody,
    status: 201,
    response: MarketingAudience,
    write: ({ accountId, body, claim }) => service.createAudience(deps, accountId, body.name, claim),
  });
}
