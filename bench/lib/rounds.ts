// Measures two targets in alternating rounds (A, B, A, B…): on a shared machine, other work then
// slows both sides alike instead of whichever happened to run at the time.
import { cpuMsOf, runLoad, type LoadDetails, type LoadRequest } from './processes.ts';
import type { BenchOptions, LoadFigures } from './types.ts';

export type Load = LoadFigures & LoadDetails;

export interface Combined extends Load {
  /** req/s of each round, in order. */
  rounds: number[];
  /** autocannon runs made (warm-up included): each may leave one request per connection unanswered. */
  runs: number;
  /**
   * CPU time (user + system) of the target's server per answered request, warm-up included, in µs:
   * read from /proc around each of the target's runs when the target names its server's `pid`, else null.
   */
  cpu_us_per_request: number | null;
}

export const ROUNDS = 2;

type Target = Omit<LoadRequest, 'connections' | 'durationSeconds' | 'warmupSeconds'> & {
  /** The process answering this target: its CPU time is read around each of the target's runs. */
  pid?: number;
};

function addCounts(into: Record<string, number>, from: Record<string, number>): Record<string, number> {
  for (const [code, n] of Object.entries(from)) into[code] = (into[code] ?? 0) + n;
  return into;
}

/**
 * The rounds of one target as one figure: req/s over all measured seconds, p50 weighted by
 * requests, p99 the worst round's (percentiles of separate runs cannot be merged exactly).
 */
export function combine(runs: Load[], secondsPerRound: number, warmedUp: boolean, cpuMs: number | null = null): Combined {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
  const answered = runs.reduce((n, r) => n + [r.statuses, r.warmup_statuses].flatMap((s) => Object.values(s)).reduce((a, b) => a + b, 0), 0);
  return {
    req_per_s: Math.round(requests / (secondsPerRound * runs.length)),
    p50_ms: Math.round((runs.reduce((n, r) => n + r.p50_ms * r.requests, 0) / Math.max(1, requests)) * 100) / 100,
    p99_ms: Math.max(...runs.map((r) => r.p99_ms)),
    requests,
    non_2xx: runs.reduce((n, r) => n + r.non_2xx, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    statuses: runs.reduce((acc, r) => addCounts(acc, r.statuses), {}),
    warmup_statuses: runs.reduce((acc, r) => addCounts(acc, r.warmup_statuses), {}),
    missing_header: runs.reduce((n, r) => n + r.missing_header, 0),
    rounds: runs.map((r) => Math.round(r.requests / secondsPerRound)),
    runs: runs.length + (warmedUp ? 1 : 0),
    cpu_us_per_request: cpuMs === null || !Number.isFinite(cpuMs) || answered === 0 ? null : Math.round((cpuMs * 1000 * 10) / answered) / 10,
  };
}

/** One run of a target, with its server's CPU milliseconds over the run (NaN when /proc could not be read). */
async function runTimed(target: Target, common: Pick<LoadRequest, 'connections' | 'durationSeconds' | 'warmupSeconds'>): Promise<[Load, number]> {
  const { pid, ...request } = target;
  const before = pid === undefined ? null : cpuMsOf(pid);
  const load = await runLoad({ ...request, ...common });
  const after = pid === undefined ? null : cpuMsOf(pid);
  return [load, before === null || after === null ? Number.NaN : after - before];
}

/**
 * `options.durationSeconds` of measured load per target, split into ROUNDS; warm-up once per target, before its first round.
 * A target naming its server's `pid` gets that server's CPU per answered request (`cpu_us_per_request`).
 */
export async function alternate(a: Target, b: Target, options: BenchOptions, onRound?: (round: number) => void): Promise<[Combined, Combined]> {
  const seconds = options.durationSeconds / ROUNDS;
  const ra: Load[] = [];
  const rb: Load[] = [];
  let cpuA = 0;
  let cpuB = 0;
  for (let i = 0; i < ROUNDS; i++) {
    onRound?.(i + 1);
    const common = { connections: options.connections, durationSeconds: seconds, warmupSeconds: i === 0 ? options.warmupSeconds : 0 };
    const [la, ca] = await runTimed(a, common);
    ra.push(la);
    cpuA += ca;
    const [lb, cb] = await runTimed(b, common);
    rb.push(lb);
    cpuB += cb;
  }
  const warmedUp = options.warmupSeconds > 0;
  return [combine(ra, seconds, warmedUp, a.pid === undefined ? null : cpuA), combine(rb, seconds, warmedUp, b.pid === undefined ? null : cpuB)];
}
