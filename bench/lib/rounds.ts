// Measures two targets in alternating rounds (A, B, A, B…): on a shared machine, other work then
// slows both sides alike instead of whichever happened to run at the time.
import { runLoad, type LoadDetails, type LoadRequest } from './processes.ts';
import type { BenchOptions, LoadFigures } from './types.ts';

export type Load = LoadFigures & LoadDetails;

export interface Combined extends Load {
  /** req/s of each round, in order. */
  rounds: number[];
  /** autocannon runs made (warm-up included): each may leave one request per connection unanswered. */
  runs: number;
}

export const ROUNDS = 2;

type Target = Omit<LoadRequest, 'connections' | 'durationSeconds' | 'warmupSeconds'>;

function addCounts(into: Record<string, number>, from: Record<string, number>): Record<string, number> {
  for (const [code, n] of Object.entries(from)) into[code] = (into[code] ?? 0) + n;
  return into;
}

/**
 * The rounds of one target as one figure: req/s over all measured seconds, p50 weighted by
 * requests, p99 the worst round's (percentiles of separate runs cannot be merged exactly).
 */
export function combine(runs: Load[], secondsPerRound: number, warmedUp: boolean): Combined {
  const requests = runs.reduce((n, r) => n + r.requests, 0);
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
  };
}

/** `options.durationSeconds` of measured load per target, split into ROUNDS; warm-up once per target, before its first round. */
export async function alternate(a: Target, b: Target, options: BenchOptions, onRound?: (round: number) => void): Promise<[Combined, Combined]> {
  const seconds = options.durationSeconds / ROUNDS;
  const ra: Load[] = [];
  const rb: Load[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    onRound?.(i + 1);
    const common = { connections: options.connections, durationSeconds: seconds, warmupSeconds: i === 0 ? options.warmupSeconds : 0 };
    ra.push(await runLoad({ ...a, ...common }));
    rb.push(await runLoad({ ...b, ...common }));
  }
  return [combine(ra, seconds, options.warmupSeconds > 0), combine(rb, seconds, options.warmupSeconds > 0)];
}
