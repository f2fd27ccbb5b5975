import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import { recordRoute } from '../../http/read-routes.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { writeRoute } from '../../http/write-routes.ts';
import { pageOf } from '../../lib/pagination.ts';
import { RESOLVE_RULES } from './orgs.resolve.ts';
import {
  CreateOrgBody,
  ExternalId,
  ExternalIdBody,
  Org,
  OrgIdParams,
  OrgList,
  OrgListQuery,
  OrgPathParams,
  ResolveBody,
  ResolveResult,
} from './orgs.schemas.ts';
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

  recordRoute(app, '/orgs/:id', {
    scope: 'orgs:read',
    errors: ['org_not_found'],
    operationId: 'getOrg',
    summary: 'One customer organization',
    tags: ['orgs'],
    params: OrgPathParams,
    response: Type.Ref('Org'),
    get: (accountId, params) => service.getOrg(deps.db, accountId, params.id),
  });

  writeRoute(app, '/orgs/resolve', {
    method: 'POST',
    scope: 'orgs:write',
    errors: ['org_lookup_required', 'org_ambiguous', 'org_not_found'],
    operationId: 'resolveOrg',
    summary: 'Map an external tenant to an organization',
    description: RESOLVE_RULES,
    tags: ['orgs'],
    body: ResolveBody,
    status: 200,
    response: ResolveResult,
    write: ({ accountId, body, claim }) => service.resolveOrg(deps, accountId, body, claim),
  });

  writeRoute(app, '/orgs/:org_id/external-ids', {
    method: 'PUT',
    scope: 'orgs:write',
    errors: ['org_not_found', 'external_id_conflict'],
    operationId: 'linkOrgExternalId',
    summary: 'Link an external tenant id to an organization',
    description:
      'Links (source_app, external_org_id) to this org. Linking a pair already linked to this org changes nothing (200); ' +
      'a pair linked to another org is 409 `external_id_conflict`. Answers the org with its external ids.',
    tags: ['orgs'],
    params: OrgIdParams,
    body: ExternalIdBody,
    status: 200,
    response: Type.Ref('Org'),
    write: ({ accountId, params, body, claim }) => service.linkExternalId(deps, accountId, params.org_id, body, claim),
  });

  writeRoute(app, '/orgs', {
    method: 'POST',
    scope: '*',
    errors: ['external_id_conflict'],
    operationId: 'createOrg',
    summary: 'Create a customer organization',
    description:
      'Creates an org, optionally linking external ids at once (a pair linked to another org is 409 `external_id_conflict`, and nothing is created).',
    tags: ['extensions'],
    body: CreateOrgBody,
    status: 201,
    response: Type.Ref('Org'),
    write: ({ accountId, body, claim }) => service.createOrg(deps, accountId, body, claim),
  });
}
