// The load generator process (pinned to its own core by processes.ts): autocannon, warm-up
// first, then the measured run; prints one JSON line of figures.
import { createRequire } from 'node:module';
import type { LoadRequest } from './processes.ts';
import type { LoadFigures } from './types.ts';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: object) => Promise<AutocannonResult>;

// autocannon is CommonJS without bundled types.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const request = JSON.parse(process.env.BENCH_LOAD ?? '{}') as LoadRequest;
const common = {
  url: request.url, headers: request.headers, connections: request.connections, pipelining: 1,
  ...(request.method ? { method: request.method } : {}), ...(request.body !== undefined ? { body: request.body } : {}),
};

if (request.warmupSeconds > 0) await autocannon({ ...common, duration: request.warmupSeconds });
const r = await autocannon({ ...common, duration: request.durationSeconds });
const figures: LoadFigures = {
  req_per_s: Math.round(r.requests.average),
  p50_ms: r.latency.p50,
  p99_ms: r.latency.p99,
  requests: r.requests.total,
  non_2xx: r.non2xx,
  errors: r.errors + r.timeouts,
};
process.stdout.write(JSON.stringify(figures) + '\n');
