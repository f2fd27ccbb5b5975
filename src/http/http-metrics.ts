import { Counter, Histogram, Registry } from 'prom-client';
import { routeOf } from './route.ts';
import type { App } from './types.ts';

/**
 * HTTP requests of this process by method, route pattern (never the raw URL, so ids do not explode
 * the series) and status, with their latency. One registry per app, read by GET /metrics.
 */
export function registerHttpMetrics(app: App): Registry {
  const registry = new Registry();
  const requests = new Counter({
    name: 'custops_http_requests_total',
    help: 'HTTP requests answered by this process, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'custops_http_request_duration_seconds',
    help: 'Time from request to response of this process, by method, route pattern and status, in seconds.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // The two series of each route (its options object), method and status, looked up once: prom-client hashes
  // the labels on every inc and observe otherwise. Bounded by the routes, methods and statuses the API has.
  type Series = { requests: Counter.Internal; duration: Histogram.Internal<'method' | 'route' | 'status'> };
  const byRoute = new WeakMap<object, Map<string, Map<number, Series>>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    const options = route.config;
    let byMethod = byRoute.get(options);
    if (!byMethod) {
      byMethod = new Map();
      byRoute.set(options, byMethod);
    }
    let byStatus = byMethod.get(request.method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(request.method, byStatus);
    }
    let s = byStatus.get(reply.statusCode);
    if (!s) {
      // Unmatched URLs (404s) share one label rather than one series per probe.
      const labels = { method: request.method, route: route.url ?? 'unmatched', status: String(reply.statusCode) };
      s = { requests: requests.labels(labels), duration: duration.labels(labels) };
      byStatus.set(reply.statusCode, s);
    }
    s.requests.inc();
    s.duration.observe(reply.elapsedTime / 1000);
    done();
  });
  return registry;
}
