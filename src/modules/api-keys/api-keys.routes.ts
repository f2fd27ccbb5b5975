import type { App } from '../../http/types.ts';
import type { ModuleDeps } from '../../http/deps.ts';
import { IdParams } from '../../http/schemas.ts';
import { API_PREFIX } from '../../http/openapi.ts';
import { pageOf } from '../../lib/pagination.ts';
import { ApiKey, ApiKeyList, ApiKeyListQuery, ApiKeyWithSecret, CreateApiKeyBody } from './api-keys.schemas.ts';
import * as keys from './api-keys.console.ts';

export const apiKeySchemas = [ApiKey];

// Managing keys is for signed-in owners and admins: a key can never mint or list keys.
const manage = { scope: null, session: 'only', role: 'admin' } as const;

export function registerApiKeyRoutes(app: App, deps: ModuleDeps): void {
  app.get(
    '/api-keys',
    {
      config: { ...manage },
      schema: {
        operationId: 'listApiKeys',
        summary: "List the account's API keys (never their secrets)",
        description: 'Newest first, revoked keys included unless `include_revoked=0`.',
        tags: ['console'],
        querystring: ApiKeyListQuery,
        response: { 200: ApiKeyList },
      },
    },
    async (request) => {
      const q = request.query;
      return keys.listKeys(deps.db, request.auth.accountId, q.include_revoked !== '0' && q.include_revoked !== 'false', pageOf(q));
    },
  );

  app.post(
    '/api-keys',
    {
      config: { ...manage },
      schema: {
        operationId: 'createApiKey',
        summary: 'Create an API key; the answer holds its secret, shown only this once',
        tags: ['console'],
        body: CreateApiKeyBody,
        response: { 201: ApiKeyWithSecret },
      },
    },
    async (request, reply) => {
      const created = await keys.createKey(deps, request.auth.accountId, request.body);
      return reply.code(201).header('Location', `${API_PREFIX}/api-keys/${created.id}`).send(created);
    },
  );

  app.post(
    '/api-keys/:id/revoke',
    {
      config: { ...manage, errors: ['api_key_not_found'] },
      schema: {
        operationId: 'revokeApiKey',
        summary: 'Revoke an API key at once',
        description: 'Requests with it are refused (401) from now on. Revoking a revoked key changes nothing.',
        tags: ['console'],
        params: IdParams,
        response: { 200: ApiKey },
      },
    },
    async (request) => keys.revokeKey(deps, request.auth.accountId, request.params.id),
  );
}
