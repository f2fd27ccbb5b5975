import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { listRoute, recordRoute } from '../../http/read-routes.ts';
import { writeRoute, type WriteRoute } from '../../http/write-routes.ts';
import type { TSchema } from 'typebox';
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

  writeRoute(app, '/contacts', {
    method: 'POST',
    scope: '*',
    errors: ['org_not_found'],
    operationId: 'createContact',
    summary: 'Create a contact',
    description: 'Adds a contact to a customer organization of the account.',
    tags: ['extensions'],
    body: CreateContactBody,
    status: 201,
    response: Contact,
    write: ({ accountId, body, claim }) => service.createContact(deps, accountId, body, claim),
  });

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

  // Replacing and removing memberships differ in their verb, body and service call only.
  const memberships = {
    scope: '*',
    role: 'admin',
    errors: ['contact_not_found', 'audience_not_found'],
    tags: ['contacts'],
    params: IdParams,
    status: 200,
    response: AudienceList,
  } satisfies Partial<WriteRoute<TSchema, typeof IdParams>>;
  writeRoute(app, '/contacts/:id/marketing-audiences', {
    ...memberships,
    method: 'PUT',
    operationId: 'replaceContactMarketingAudiences',
    summary: "Replace a contact's marketing audiences",
    description:
      "Sets the contact's audiences to exactly `audience_ids` and answers the new set. An id that is not an audience of the " +
      'account is 404 `audience_not_found` and nothing changes.',
    body: ReplaceMembershipsBody,
    write: ({ accountId, params, body, claim }) => audiences.replaceAudiences(deps, accountId, params.id, body.audience_ids, claim),
  });
  writeRoute(app, '/contacts/:id/marketing-audiences', {
    ...memberships,
    method: 'DELETE',
    operationId: 'removeContactMarketingAudiences',
    summary: 'Remove a contact from marketing audiences',
    description:
      'With `audience_ids`, removes the contact from those audiences; with no body (or no `audience_ids`), from every ' +
      'audience. Answers the remaining set. An id that is not an audience of the account is 404 `audience_not_found` and nothing changes.',
    body: RemoveMembershipsBody,
    // No body at all means "leave every audience".
    optionalBody: true,
    write: ({ accountId, params, body, claim }) => audiences.removeAudiences(deps, accountId, params.id, body.audience_ids, claim),
  });

  registerAudienceRoutes(app, deps);
}
