import { Counter, Histogram, Registry } from 'prom-client';
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
  // The two series of each method, route and status, looked up once: prom-client hashes the labels on every
  // inc and observe otherwise. Bounded by the routes and statuses the API has.
  const series = new Map<string, { requests: Counter.Internal; duration: Histogram.Internal<'method' | 'route' | 'status'> }>();
  app.addHook('onResponse', (request, reply, done) => {
    // Unmatched URLs (404s) share one label rather than one series per probe.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let s = series.get(key);
    if (!s) {
      const labels = { method: request.method, route, status: String(reply.statusCode) };
      s = { requests: requests.labels(labels), duration: duration.labels(labels) };
      series.set(key, s);
    }
    s.requests.inc();
    s.duration.observe(reply.elapsedTime / 1000);
    done();
  });
  return registry;
}
