import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from '../../http/types.ts';

/** Where `npm run build:web` (run by `npm ci`) puts the console. */
export const WEB_DIST = join(import.meta.dirname, '..', '..', '..', 'web', 'dist');

/** Paths the console never claims: they answer in the API's error model when unknown. */
const SERVER_PREFIXES = ['/api/', '/api', '/docs', '/mcp', '/metrics', '/healthz', '/readyz', '/assets/'];

/**
 * Console pages: a strict Content-Security-Policy (no inline script or style, no framing),
 * no MIME sniffing, no referrer leaking ids to other sites. Set by hand because they apply
 * to two routes only; a helmet-style plugin would also touch every API response.
 */
export function setConsoleSecurityHeaders(reply: FastifyReply): void {
  reply.header(
    'Content-Security-Policy',
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
      "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  );
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'same-origin');
  reply.header('X-Frame-Options', 'DENY');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
}

/**
 * Serves the built console: hashed files under /assets (cached for a year), and index.html for
 * every other GET that is not a server path (the single-page app routes in the browser). Unknown
 * server paths still reach the API's 404/405 handler.
 */
export async function registerConsole(app: App, options: { dist?: string } = {}): Promise<void> {
  const dist = options.dist ?? WEB_DIST;
  const indexFile = join(dist, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: join(dist, 'assets'),
      prefix: '/assets/',
      immutable: true,
      maxAge: '365d',
      index: false,
      setHeaders: (res) => res.header('X-Content-Type-Options', 'nosniff'),
    });
  }
  const index = built ? readFileSync(indexFile) : null;
  const page = (url: string, accept: string | undefined, reply: FastifyReply) => {
    const path = url.split('?')[0];
    if (SERVER_PREFIXES.some((p) => path === p || path.startsWith(p.endsWith('/') ? p : p + '/'))) return reply.callNotFound();
    // Deep links are pages for browsers (they ask for HTML); API clients asking an unknown path get the JSON 404.
    if (path !== '/' && !accept?.includes('text/html')) return reply.callNotFound();
    setConsoleSecurityHeaders(reply);
    reply.header('Cache-Control', 'no-cache');
    if (!index) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web console is not built. Run "npm run build:web" (npm ci does it), then restart custops serve.\n');
    }
    return reply.type('text/html; charset=utf-8').send(index);
  };
  app.get('/', { config: { scope: null }, schema: { hide: true } }, (request, reply) => page(request.url, request.headers.accept, reply));
  app.get('/*', { config: { scope: null }, schema: { hide: true } }, (request, reply) => page(request.url, request.headers.accept, reply));
}
