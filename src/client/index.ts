/**
 * The typed custops API client (`custops/client`): openapi-fetch over the types generated
 * from the service's own OpenAPI document (`src/client/api-types.ts`, made by
 * `npm run gen:api`). The web console uses the same client with its session cookie.
 *
 *   const api = createCustopsClient({ baseUrl: 'https://custops.example.com', apiKey: process.env.CUSTOPS_API_KEY });
 *   const { data, error } = await api.GET('/api/v1/deals', { params: { query: { status: 'won' } } });
 */
import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, paths } from './api-types.ts';

export type { components, operations, paths } from './api-types.ts';
export type CustopsClient = Client<paths>;
/** The error body every failing call answers: `{error, message, fields?, request_id}`. */
export type ApiErrorBody = components['schemas']['ErrorResponse'];

export interface CustopsClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's origin, for example `http://127.0.0.1:8080` (paths already start with `/api/v1`). */
  baseUrl: string;
  /** An API key secret (`cok_…`); left out by the console, which authenticates with its session cookie. */
  apiKey?: string;
}

export function createCustopsClient(options: CustopsClientOptions): CustopsClient {
  const { apiKey, ...rest } = options;
  const client = createClient<paths>(rest);
  if (apiKey) {
    const bearer: Middleware = {
      onRequest({ request }) {
        request.headers.set('Authorization', `Bearer ${apiKey}`);
        return request;
      },
    };
    client.use(bearer);
  }
  return client;
}
