import { Type } from 'typebox';
import type { App } from '../../http/types.ts';
import type { ErrorObject } from 'ajv';
import { fieldsFromAjv } from '../../http/validation.ts';
import { validationError } from '../../lib/errors.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { answer } from '../../http/answer.ts';
import { listRoute, recordRoute } from '../../http/read-routes.ts';
import {
  CreateLogBody,
  CreateTicketBody,
  LogListQuery,
  LogParams,
  SupportLog,
  SupportLogList,
  Ticket,
  TicketCreated,
  TicketList,
  TicketListQuery,
  TicketParams,
  UpdateTicketBody,
} from './support.schemas.ts';
import * as service from './support.service.ts';
import * as writes from './support.writes.ts';
import { RESOLVE_RULES } from '../orgs/orgs.resolve.ts';

/** Shared (by $ref) schemas of this module; the composition root registers them once. */
export const supportSchemas = [Ticket, SupportLog];

export function registerSupportRoutes(app: App, deps: ModuleDeps): void {
  listRoute(app, '/support/tickets', {
    scope: 'support:read',
    errors: ['org_not_found', 'user_not_found', 'contact_not_found'],
    operationId: 'listTickets',
    summary: 'List support tickets',
    description: 'Filters combine with AND. `sort=title` orders case-insensitively; `sort=status` alphabetically. Ties are broken by id.',
    tags: ['support'],
    querystring: TicketListQuery,
    response: TicketList,
    list: (accountId, query, page) => service.listTickets(deps.db, accountId, query, page),
  });

  recordRoute(app, '/support/tickets/:id', {
    scope: 'support:read',
    errors: ['ticket_not_found'],
    operationId: 'getTicket',
    summary: 'One support ticket',
    tags: ['support'],
    params: TicketParams,
    response: Type.Ref('Ticket'),
    get: (accountId, params) => service.getTicket(deps.db, accountId, params.id),
  });

  listRoute(app, '/support/tickets/:id/logs', {
    scope: 'support:read',
    errors: ['ticket_not_found'],
    operationId: 'listTicketLogs',
    summary: 'Support logs of a ticket',
    tags: ['support'],
    params: TicketParams,
    querystring: LogListQuery,
    response: SupportLogList,
    list: (accountId, query, page, params) => service.listLogs(deps.db, accountId, params.id, query, page),
  });

  recordRoute(app, '/support/tickets/:id/logs/:log_id', {
    scope: 'support:read',
    errors: ['ticket_not_found', 'support_log_not_found'],
    operationId: 'getTicketLog',
    summary: 'One support log',
    tags: ['support'],
    params: LogParams,
    response: Type.Ref('SupportLog'),
    get: (accountId, params) => service.getLog(deps.db, accountId, params.id, params.log_id),
  });

  app.post(
    '/support/tickets',
    {
      config: { scope: 'support:write', errors: ['org_lookup_required', 'org_ambiguous', 'org_not_found', 'contact_not_found'] },
      schema: {
        operationId: 'createTicket',
        summary: 'Create a ticket and its first log',
        description:
          'The org comes from the (source_app, external_org_id) mapping, or is looked up and linked on first use exactly as ' +
          `POST /orgs/resolve does, with org_name, contact_email and contact_name as the hints. ${RESOLVE_RULES}\n\n` +
          'Extension: `org_id` names an org of the account directly instead (404 `org_not_found` otherwise); it is refused ' +
          'beside `external_org_id` (422 `fields.org_id = "not_allowed"`), and one of the two is required (422 ' +
          '`fields.external_org_id = "required"`). `source_app` is still recorded on the ticket.\n\n' +
          'The contact: `contact_id` (404 `contact_not_found` when unknown; 422 `fields.contact_id = "not_in_org"` when it belongs to another org) takes precedence; otherwise ' +
          '`contact_email` is matched case-insensitively among the org contacts (the oldest wins) or created in the org ' +
          '(named `contact_name` when sent). Neither sent: 422 `validation_error` with `fields.contact_email = "required"`.\n\n' +
          'The ticket opens with status `open`; its first log has `note` (default: details) and the ticket channel ' +
          '(default `api`). Ticket, log and the events `support.ticket.opened` and `support.log.created` are written in ' +
          'one transaction. Answers 201 with the ticket and its first log under `first_log`.',
        tags: ['support'],
        body: CreateTicketBody,
        response: { 201: TicketCreated },
      },
      // Schema errors and the contact rule are reported together, so `fields.contact_email = "required"` is never hidden.
      attachValidation: true,
    },
    async (request, reply) => {
      const fields = request.validationError ? fieldsFromAjv(request.validationError.validation as ErrorObject[]) : {};
      const body = request.body as Record<string, unknown> | undefined;
      const absent = (v: unknown) => v === undefined || v === null || v === '';
      if ((body === undefined || (typeof body === 'object' && !Array.isArray(body))) && absent(body?.contact_id) && absent(body?.contact_email)) {
        fields.contact_email = 'required';
      }
      if (body !== undefined && typeof body === 'object' && !Array.isArray(body)) {
        // Exactly one way to name the org: the integrator's pair, or (extension) the org id.
        if (absent(body.org_id) && absent(body.external_org_id) && !fields.external_org_id) fields.external_org_id = 'required';
        if (!absent(body.org_id) && !absent(body.external_org_id) && !fields.org_id) fields.org_id = 'not_allowed';
      }
      const names = Object.keys(fields);
      if (names.length)
        throw validationError(
          fields,
          names.length === 1 && fields.contact_email === 'required' ? 'contact_email is required unless contact_id is sent.' : undefined,
        );
      return answer(
        request,
        reply,
        await writes.createTicket(deps, request.auth.accountId, request.body, request.auth.session?.userId ?? null, request.idempotency),
      );
    },
  );

  app.patch(
    '/support/tickets/:id',
    {
      config: { scope: '*', errors: ['ticket_not_found', 'user_not_found'] },
      schema: {
        operationId: 'updateTicket',
        summary: 'Change the status, owner or title of a ticket',
        description:
          'Any status may move to any other. Moving to `closed` sets closed_at and emits `support.ticket.closed`; moving ' +
          'from `closed` to `open` or `pending` clears closed_at and emits `support.ticket.opened`. Moves between `open` ' +
          'and `pending`, owner and title changes emit nothing. Fields sent with their current values change nothing ' +
          '(updated_at included). `owner_user_id: null` unassigns. A new owner must be an active, support-enabled user ' +
          '(`422 validation_error` naming `owner_user_id` otherwise); the current owner sent again is kept as it is.',
        tags: ['extensions'],
        params: TicketParams,
        body: UpdateTicketBody,
        response: { 200: Type.Ref('Ticket') },
      },
    },
    async (request, reply) =>
      answer(request, reply, await writes.updateTicket(deps, request.auth.accountId, request.params.id, request.body, request.idempotency)),
  );

  app.post(
    '/support/tickets/:id/logs',
    {
      config: { scope: '*', errors: ['ticket_not_found'] },
      schema: {
        operationId: 'createTicketLog',
        summary: 'Add a support log to a ticket',
        description: 'Closed tickets accept logs too (the status does not change). Sets the ticket updated_at and emits `support.log.created`.',
        tags: ['extensions'],
        params: TicketParams,
        body: CreateLogBody,
        response: { 201: Type.Ref('SupportLog') },
      },
    },
    async (request, reply) => {
      return answer(
        request,
        reply,
        await writes.addLog(deps, request.auth.accountId, request.params.id, request.body, request.auth.session?.userId ?? null, request.idempotency),
      );
    },
  );
}
