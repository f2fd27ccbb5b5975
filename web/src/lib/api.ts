import { createCustopsClient, type ApiErrorBody } from '../../../src/client/index.ts';

/**
 * The one API client of the console: the package's typed client, authenticated by the session
 * cookie (same origin), with the session's CSRF token on every write.
 */
export const api = createCustopsClient({ baseUrl: window.location.origin, credentials: 'same-origin' });

let csrfToken: string | null = null;
let onSignedOut: (() => void) | null = null;

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when the server answers 401 to a signed-in request (the session ended or expired). */
export function setSignedOutHandler(handler: () => void): void {
  onSignedOut = handler;
}

api.use({
  onRequest({ request }) {
    if (csrfToken && request.method !== 'GET' && request.method !== 'HEAD') request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ request, response }) {
    if (response.status === 401 && csrfToken && !new URL(request.url).pathname.startsWith('/api/v1/session')) onSignedOut?.();
    return response;
  },
});

/** A failed API call: the status and the error body (`fields` maps form fields to reasons). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ApiErrorBody | null;
  constructor(status: number, body: ApiErrorBody | null) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.status = status;
    this.body = body;
  }
  get fields(): Record<string, string> {
    return (this.body?.fields as Record<string, string> | undefined) ?? {};
  }
}

/** Turns an openapi-fetch result into its data, or throws ApiError (for TanStack Query). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw new ApiError(response.status, (error as ApiErrorBody | undefined) ?? null);
  return data as T;
}

/**
 * A failed write as the errors of a form: the message for the whole form under `form`, and each
 * field's reason on its field (an array item such as `scopes.0` on `scopes`), said as
 * `${refused}: <reason in words>.`
 */
export function formErrorsOf(err: unknown, refused: string): Record<string, string> {
  if (!(err instanceof ApiError)) return { form: 'The server could not be reached.' };
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(err.fields)) out[k.split('.')[0]] = `${refused}: ${v.replaceAll('_', ' ')}.`;
  return { ...out, form: err.message };
}
