// Measures two targets in alternating rounds (A, B, A, B…): on a shared machine, other work then
// slows both sides alike instead of whichever happened to run at the time.
import { cpuMsOf, cpuMsOfEach, postgresPids, runLoad, type LoadDetails, type LoadRequest } from './processes.ts';
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
  /**
   * CPU time of the local PostgreSQL server's processes per answered request, warm-up included, in
   * µs, when the target asks for it (`database: true`) and the server runs on this machine; else null.
   */
  db_cpu_us_per_request: number | null;
}

export const ROUNDS = 2;

type Target = Omit<LoadRequest, 'connections' | 'durationSeconds' | 'warmupSeconds'> & {
  /** The process answering this target: its CPU time is read around each of the target's runs. */
  pid?: number;
  /** Read the local PostgreSQL server's CPU time around each run too. */
  database?: boolean;
};

function addCounts(into: Record<string, number>, from: Record<string, number>): Record<string, number> {
  for (const [code, n] of Object.entries(from)) into[code] = (into[code] ?? 0) + n;
  return into;
}

/**
 * The rounds of one target as one figure: req/s over all measured seconds, p50 weighted by
 * requests, p99 the worst round's (percentiles of separate runs cannot be merged exactly).
 */
export function combine(runs: Load[], secondsPerRound: number, warmedUp: boolean, cpuMs: number | null = null, dbCpuMs: number | null = null): Combined {
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
    cpu_us_per_request: perRequest(cpuMs, answered),
    db_cpu_us_per_request: perRequest(dbCpuMs, answered),
  };
}

function perRequest(ms: number | null, answered: number): number | null {
  return ms === null || !Number.isFinite(ms) || answered === 0 ? null : Math.round((ms * 1000 * 10) / answered) / 10;
}

/**
 * CPU milliseconds of the local PostgreSQL server's processes between two readings: processes
 * present at both (pooled backends live as long as the run; one that started or ended within it
 * is left out). NaN when the server's processes cannot be read.
 */
function databaseCpuMs(before: Map<number, number>, after: Map<number, number>): number {
  let ms = 0;
  for (const [pid, end] of after) {
    const start = before.get(pid);
    if (start !== undefined) ms += end - start;
  }
  return after.size === 0 ? Number.NaN : ms;
}

/** One run of a target, with its server's and (when asked) the database's CPU milliseconds over the run (NaN when /proc could not be read). */
async function runTimed(target: Target, common: Pick<LoadRequest, 'connections' | 'durationSeconds' | 'warmupSeconds'>): Promise<[Load, number, number]> {
  const { pid, database, ...request } = target;
  const before = pid === undefined ? null : cpuMsOf(pid);
  const dbBefore = database ? cpuMsOfEach(postgresPids()) : null;
  const load = await runLoad({ ...request, ...common });
  const after = pid === undefined ? null : cpuMsOf(pid);
  const dbMs = dbBefore ? databaseCpuMs(dbBefore, cpuMsOfEach([...dbBefore.keys()])) : Number.NaN;
  return [load, before === null || after === null ? Number.NaN : after - before, dbMs];
}

/**
 * `options.durationSeconds` of measured load per target, split into ROUNDS; warm-up once per target, before its first round.
 * A target naming its server's `pid` gets that server's CPU per answered request (`cpu_us_per_request`);
 * one with `database: true`, the local PostgreSQL server's (`db_cpu_us_per_request`).
 */
export async function alternate(a: Target, b: Target, options: BenchOptions, onRound?: (round: number) => void): Promise<[Combined, Combined]> {
  const seconds = options.durationSeconds / ROUNDS;
  const ra: Load[] = [];
  const rb: Load[] = [];
  let cpuA = 0;
  let cpuB = 0;
  let dbA = 0;
  let dbB = 0;
  for (let i = 0; i < ROUNDS; i++) {
    onRound?.(i + 1);
    const common = { connections: options.connections, durationSeconds: seconds, warmupSeconds: i === 0 ? options.warmupSeconds : 0 };
    const [la, ca, da] = await runTimed(a, common);
    ra.push(la);
    cpuA += ca;
    dbA += da;
    const [lb, cb, db] = await runTimed(b, common);
    rb.push(lb);
    cpuB += cb;
    dbB += db;
  }
  const warmedUp = options.warmupSeconds > 0;
  return [
    combine(ra, seconds, warmedUp, a.pid === undefined ? null : cpuA, a.database ? dbA : null),
    combine(rb, seconds, warmedUp, b.pid === undefined ? null : cpuB, b.database ? dbB : null),
  ];
}
