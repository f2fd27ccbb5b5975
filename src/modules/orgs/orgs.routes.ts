import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { pageOf } from '../../lib/pagination.ts';
import { ExternalId, Org, OrgList, OrgListQuery } from './orgs.schemas.ts';
import * as service from './orgs.service.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const orgSchemas = [ExternalId, Org];

export function registerOrgRoutes(app: App, deps: ModuleDeps): void {
  app.get(
    '/orgs',
    {
      config: { scope: 'orgs:read' },
      schema: {
        operationId: 'listOrgs',
        summary: 'List customer organizations',
        tags: ['orgs'],
        querystring: OrgListQuery,
        response: { 200: OrgList },
      },
    },
    async (request) => service.listOrgs(deps.db, request.auth.accountId, { q: request.query.q }, pageOf(request.query)),
  );
}
