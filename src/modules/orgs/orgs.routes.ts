import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import { recordRoute } from '../../http/read-routes.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { answer } from '../../http/answer.ts';
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

  app.post(
    '/orgs/resolve',
    {
      config: { scope: 'orgs:write', errors: ['org_lookup_required', 'org_ambiguous', 'org_not_found'] },
      schema: {
        operationId: 'resolveOrg',
        summary: 'Map an external tenant to an organization',
        description: RESOLVE_RULES,
        tags: ['orgs'],
        body: ResolveBody,
        response: { 200: ResolveResult },
      },
    },
    async (request, reply) => answer(request, reply, await service.resolveOrg(deps, request.auth.accountId, request.body, request.idempotency)),
  );

  app.put(
    '/orgs/:org_id/external-ids',
    {
      config: { scope: 'orgs:write', errors: ['org_not_found', 'external_id_conflict'] },
      schema: {
        operationId: 'linkOrgExternalId',
        summary: 'Link an external tenant id to an organization',
        description:
          'Links (source_app, external_org_id) to this org. Linking a pair already linked to this org changes nothing (200); ' +
          'a pair linked to another org is 409 `external_id_conflict`. Answers the org with its external ids.',
        tags: ['orgs'],
        params: OrgIdParams,
        body: ExternalIdBody,
        response: { 200: Type.Ref('Org') },
      },
    },
    async (request, reply) =>
      answer(request, reply, await service.linkExternalId(deps, request.auth.accountId, request.params.org_id, request.body, request.idempotency)),
  );

  app.post(
    '/orgs',
    {
      config: { scope: '*', errors: ['external_id_conflict'] },
      schema: {
        operationId: 'createOrg',
        summary: 'Create a customer organization',
        description: 'Creates an org, optionally linking external ids at once (a pair linked to another org is 409 `external_id_conflict`, and nothing is created).',
        tags: ['extensions'],
        body: CreateOrgBody,
        response: { 201: Type.Ref('Org') },
      },
    },
    async (request, reply) => answer(request, reply, await service.createOrg(deps, request.auth.accountId, request.body, request.idempotency)),
  );
}
