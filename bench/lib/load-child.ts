// The load generator process (pinned to its own core by processes.ts): autocannon, warm-up
// first, then the measured run; prints one JSON line of figures.
import { createRequire } from 'node:module';
import type { LoadDetails, LoadRequest } from './processes.ts';
import type { LoadFigures } from './types.ts';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (options: object) => Promise<AutocannonResult>;

// autocannon is CommonJS without bundled types.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
const request = JSON.parse(process.env.BENCH_LOAD ?? '{}') as LoadRequest;
let missingHeader = 0;
const expected = request.expectHeader;
/** Header names arrive as the server wrote them: compare them in lower case. */
function hasExpectedHeader(headers: Record<string, string | string[]>): boolean {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() === expected!.name) return ([] as string[]).concat(value).includes(expected!.value);
  }
  return false;
}
const common = {
  url: request.url,
  headers: request.headers,
  connections: request.connections,
  pipelining: 1,
  ...(request.method ? { method: request.method } : {}),
  ...(request.body !== undefined ? { body: request.body } : {}),
  ...(request.uniqueIds ? { idReplacement: true } : {}),
  ...(request.overallRate ? { overallRate: request.overallRate } : {}),
  ...(expected
    ? {
        requests: [
          {
            onResponse(_status: number, _body: string, _context: object, headers: Record<string, string | string[]>) {
              if (!hasExpectedHeader(headers)) missingHeader++;
            },
          },
        ],
      }
    : {}),
};
const counts = (stats: AutocannonResult['statusCodeStats']) => Object.fromEntries(Object.entries(stats).map(([code, s]) => [code, s.count]));

const warmup = request.warmupSeconds > 0 ? await autocannon({ ...common, duration: request.warmupSeconds }) : null;
const r = await autocannon({ ...common, duration: request.durationSeconds });
const figures: LoadFigures & LoadDetails = {
  req_per_s: Math.round(r.requests.average),
  p50_ms: r.latency.p50,
  p99_ms: r.latency.p99,
  requests: r.requests.total,
  non_2xx: r.non2xx,
  errors: r.errors + r.timeouts,
  statuses: counts(r.statusCodeStats),
  warmup_statuses: warmup ? counts(warmup.statusCodeStats) : {},
  missing_header: missingHeader,
};
process.stdout.write(JSON.stringify(figures) + '\n');
