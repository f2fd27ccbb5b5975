import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ErrorCode } from '../lib/errors.ts';
import type { ScopeRequirement } from '../modules/api-keys/scopes.ts';

/** The Fastify instance every module registers routes on (TypeBox types flow into handlers). */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Who is calling: resolved from the API key (or the console session) before any route code runs. */
export interface AuthContext {
  accountId: number;
  /** The API key; null for a console session. */
  keyId: number | null;
  /** null for full access ("*"). */
  scopes: ReadonlySet<string> | null;
  rateLimitPerMinute: number;
  /** The rate-limit counter's name for this key (or user). */
  rateLimitKey: string;
  /** Set when a signed-in console user calls (cookie): work is attributed to `userId`. */
  session?: { id: number; userId: number; role: 'owner' | 'admin' | 'member'; csrfToken: string; expiresAt: number };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every authenticated route; routes may rely on it (the auth hook rejects otherwise). */
    auth: AuthContext;
    /** The exact request body bytes, for X-Service-Signature (and the MCP endpoint, which reads its JSON-RPC itself). */
    rawBody: Buffer | undefined;
    /** The route's options once read (http/route.ts). */
    routeCache: FastifyRequest['routeOptions'] | null;
  }
  interface FastifyContextConfig {
    /** The scope the route requires (or a list, any of which grants it); `null` marks a public route (no key needed). */
    scope?: ScopeRequirement | null;
    /** Route-specific error codes, documented in the OpenAPI document beside the common ones. */
    errors?: ErrorCode[];
    /**
     * Console routes. `sign-in`: public, but refuses API keys. `only`: needs a console session and
     * refuses API keys (the session itself, API keys and team management).
     */
    session?: 'sign-in' | 'only';
    /** `admin`: a console session needs the role owner or admin; API keys are judged by their scopes alone. */
    role?: 'admin';
    /**
     * A long-lived answer that takes the reply over (`reply.hijack()`, the event stream): it reads only,
     * the server's close ends it, and a server stopping does not wait for it as for a handler.
     */
    stream?: true;
    /**
     * Set when the route is registered, from its response schema (http/credentials.ts): its answer can
     * show a credential, so it is sent with `Cache-Control: no-store` and a stored idempotent copy is
     * encrypted at rest.
     */
    answersCredential?: true;
  }
}
