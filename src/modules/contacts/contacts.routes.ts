import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { optionalBody } from '../../http/json-body.ts';
import { listRoute, recordRoute } from '../../http/read-routes.ts';
import { answer } from '../../http/answer.ts';
import * as audiences from './audiences.service.ts';
import {
  AudienceList,
  AudienceListQuery,
  Contact,
  ContactList,
  ContactListQuery,
  CreateContactBody,
  MarketingAudience,
  RemoveMembershipsBody,
  ReplaceMembershipsBody,
} from './contacts.schemas.ts';
import * as service from './contacts.service.ts';
import { registerAudienceRoutes } from './audiences.routes.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const contactSchemas = [Contact, MarketingAudience];

export function registerContactRoutes(app: App, deps: ModuleDeps): void {
  listRoute(app, '/contacts', {
    scope: 'contacts:read',
    errors: ['org_not_found'],
    operationId: 'listContacts',
    summary: 'List contacts',
    description: 'Contacts of the account, newest first by default; filters combine with AND.',
    tags: ['contacts'],
    querystring: ContactListQuery,
    response: ContactList,
    list: (accountId, { org_id, email, q, sort, direction }, page) =>
      service.listContacts(deps.db, accountId, { org_id, email, q }, { sort: sort ?? 'created_at', direction: direction ?? 'desc' }, page),
  });

  recordRoute(app, '/contacts/:id', {
    scope: 'contacts:read',
    errors: ['contact_not_found'],
    operationId: 'getContact',
    summary: 'Get one contact',
    tags: ['contacts'],
    params: IdParams,
    response: Contact,
    get: (accountId, params) => service.getContact(deps.db, accountId, params.id),
  });

  app.post(
    '/contacts',
    {
      config: { scope: '*', errors: ['org_not_found'] },
      schema: {
        operationId: 'createContact',
        summary: 'Create a contact',
        description: 'Adds a contact to a customer organization of the account.',
        tags: ['extensions'],
        body: CreateContactBody,
        response: { 201: Contact },
      },
    },
    async (request, reply) => answer(request, reply, await service.createContact(deps, request.auth.accountId, request.body, request.idempotency)),
  );

  listRoute(app, '/contacts/:id/marketing-audiences', {
    scope: 'contacts:read',
    errors: ['contact_not_found'],
    operationId: 'listContactMarketingAudiences',
    summary: "List a contact's marketing audiences",
    tags: ['contacts'],
    params: IdParams,
    querystring: AudienceListQuery,
    response: AudienceList,
    list: (accountId, _query, page, params) => audiences.contactAudiences(deps.db, accountId, params.id, page),
  });

  app.put(
    '/contacts/:id/marketing-audiences',
    {
      config: { scope: '*', role: 'admin', errors: ['contact_not_found', 'audience_not_found'] },
      schema: {
        operationId: 'replaceContactMarketingAudiences',
        summary: "Replace a contact's marketing audiences",
        description:
          'Sets the contact\'s audiences to exactly `audience_ids` and answers the new set. An id that is not an audience of the ' +
          'account is 404 `audience_not_found` and nothing changes.',
        tags: ['contacts'],
        params: IdParams,
        body: ReplaceMembershipsBody,
        response: { 200: AudienceList },
      },
    },
    async (request, reply) =>
      answer(request, reply, await audiences.replaceAudiences(deps, request.auth.accountId, request.params.id, request.body.audience_ids, request.idempotency)),
  );

  app.delete(
    '/contacts/:id/marketing-audiences',
    {
      config: { scope: '*', role: 'admin', errors: ['contact_not_found', 'audience_not_found'] },
      // No body at all means "leave every audience".
      preValidation: optionalBody,
      schema: {
        operationId: 'removeContactMarketingAudiences',
        'x-body-optional': true,
        summary: 'Remove a contact from marketing audiences',
        description:
          'With `audience_ids`, removes the contact from those audiences; with no body (or no `audience_ids`), from every ' +
          'audience. Answers the remaining set. An id that is not an audience of the account is 404 `audience_not_found` and nothing changes.',
        tags: ['contacts'],
        params: IdParams,
        body: RemoveMembershipsBody,
        response: { 200: AudienceList },
      },
    },
    async (request, reply) =>
      answer(request, reply, await audiences.removeAudiences(deps, request.auth.accountId, request.params.id, request.body.audience_ids, request.idempotency)),
  );

  registerAudienceRoutes(app, deps);
}
