import type { FastifyRequest } from 'fastify';
import type { AuthInfo, McpHttpHandler } from '@modelcontextprotocol/server';
import type { Db } from '../db/database.ts';
import { authenticateApiKey, readBearer } from '../http/auth.ts';
import { AppError } from '../lib/errors.ts';
import type { App, AuthContext } from '../http/types.ts';
import type { Clock } from '../lib/clock.ts';
import type { KeyCache } from '../modules/api-keys/key-cache.ts';
import { buildToolCatalog, type OpenApiDocument, type ToolCatalog } from './catalog.ts';
import { MCP_PATH } from './names.ts';
import type { ToolCaller } from './server.ts';

export interface McpRouteOptions {
  db: Db;
  keys: KeyCache;
  clock: Clock;
  defaultRateLimit: number;
  bodyLimit: number;
  version: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The API key of a request to the MCP endpoint. */
    mcpAuth: AuthContext | null;
  }
}

// Headers that describe the connection, not the message: the web Request sets its own.
const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect']);

/**
 * The request as the SDK's web-standard handler takes it. Valid JSON is handed over parsed (the
 * SDK then reads no body); anything else goes as the raw bytes, so the SDK itself answers -32700.
 */
function webRequest(request: FastifyRequest): { request: Request; parsedBody: unknown } {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const raw = request.rawBody ?? Buffer.alloc(0);
  let parsedBody: unknown;
  try {
    parsedBody = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
  } catch {
    parsedBody = undefined;
  }
  // The SDK routes on the body and headers only; a fixed origin keeps an odd Host header from failing the URL.
  const url = `http://localhost${request.url}`;
  return { request: new Request(url, { method: 'POST', headers, body: parsedBody === undefined ? raw : undefined }), parsedBody };
}

/**
 * `POST /mcp`: the Model Context Protocol over Streamable HTTP, stateless (each POST carries the
 * API key; GET and DELETE answer 405 like any other method a path lacks). The official SDK parses
 * and answers JSON-RPC; each tool call is then the REST request itself, run through Fastify's
 * injector with the caller's key, so every check, write, event and log line is the REST one.
 */
export async function registerMcpRoute(app: App, opts: McpRouteOptions): Promise<void> {
  let catalog: ToolCatalog | null = null;
  // The document is complete once every route is registered; a route whose schema cannot be a tool stops the start.
  app.addHook('onReady', async () => {
    catalog = buildToolCatalog(app.swagger() as unknown as OpenApiDocument);
  });
  const lastTouched = new Map<number, number>();

  // The SDK is loaded on the first MCP request, so a service no agent uses starts as fast as before.
  let handler: Promise<McpHttpHandler> | null = null;
  const mcpHandler = () =>
    (handler ??= Promise.all([import('@modelcontextprotocol/server'), import('./server.ts')]).then(([sdk, { createToolServers }]) => {
      if (!catalog) throw new Error('MCP request before the service is ready');
      const servers = createToolServers(catalog, opts.version);
      return sdk.createMcpHandler(
        ({ authInfo }) => {
          const caller = authInfo?.extra?.caller as ToolCaller | undefined;
          if (!caller) throw new Error('MCP request without an authenticated caller');
          return servers(caller);
        },
        { maxRequestBodySize: opts.bodyLimit, onerror: (err) => app.log.debug({ err }, 'mcp request refused') },
      );
    }));
  app.addHook('onClose', async () => {
    if (handler) await (await handler).close();
  });

  await app.register(async (scope) => {
    // The SDK reads the JSON-RPC itself (a syntax error is its -32700 with HTTP 400): keep the raw bytes only.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: opts.bodyLimit }, (request, body, done) => {
      request.rawBody = body as Buffer;
      done(null, undefined);
    });
    scope.decorateRequest('mcpAuth', null);

    scope.post(
      MCP_PATH,
      {
        // Not a REST operation (no scope of its own): the key is checked here, and each tool call is checked again as REST.
        config: { scope: null },
        schema: { hide: true },
        onRequest: async (request) => {
          try {
            request.mcpAuth = await authenticateApiKey(opts, request, lastTouched);
          } catch (err) {
            if (err instanceof AppError && err.code === 'unauthorized') {
              throw new AppError(err.code, err.message, { headers: { 'WWW-Authenticate': 'Bearer' } });
            }
            throw err;
          }
        },
      },
      async (request, reply) => {
        const auth = request.mcpAuth!;
        const apiKey = readBearer(request.headers.authorization)!;
        const caller: ToolCaller = {
          apiKey,
          scopes: auth.scopes,
          requestId: String(request.id),
          log: request.log,
          rest: async (rest) => {
            // The caller's address too, so the REST request's log line names the agent's host, not loopback.
            const res = await app.inject({
              method: rest.method as 'GET',
              url: rest.url,
              headers: rest.headers,
              payload: rest.payload,
              remoteAddress: request.ip,
            });
            return { statusCode: res.statusCode, headers: res.headers, body: res.body };
          },
        };
        const authInfo: AuthInfo = {
          token: apiKey,
          clientId: `key_${auth.keyId}`,
          scopes: auth.scopes ? [...auth.scopes] : ['*'],
          extra: { caller },
        };
        const web = webRequest(request);
        const response = await (await mcpHandler()).fetch(web.request, { authInfo, parsedBody: web.parsedBody });
        // A stream (SSE for 2025-era clients) is passed through as it comes; a JSON answer is sent as its bytes,
        // which costs less than piping its web stream or decoding it to text and encoding it again.
        if (!response.body || response.headers.get('content-type')?.startsWith('text/event-stream')) return reply.send(response);
        reply.code(response.status);
        for (const [name, value] of response.headers) reply.header(name, value);
        return reply.send(Buffer.from(await response.arrayBuffer()));
      },
    );
  });
}
