import { randomBytes } from 'node:crypto';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import type { LoadFigures } from './types.ts';

const NODE = 'node_modules/.bin/node';
/** The server under test gets one core, the load generator the other, so they never compete. */
export const SERVER_CORE = 1;
export const LOAD_CORE = 0;

/** Clock ticks per second of /proc/<pid>/stat times (100 on every common Linux). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

let pinningChecked: boolean | null = null;

function canPin(): boolean {
  if (pinningChecked === null) {
    pinningChecked = availableParallelism() >= 2 && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
    if (!pinningChecked) log('warning: taskset or a second core is missing; processes run unpinned and figures are noisier');
  }
  return pinningChecked;
}

export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

/**
 * `BENCH_CPU_PROF=DIR`: the server under test writes a V8 CPU profile there when it stops (open it in Chrome DevTools).
 * `BENCH_HEAP_SNAPSHOTS=DIR`: it writes a heap snapshot there on SIGUSR2 (the soak scenario sends one after warm-up and one at the end).
 */
function profileArgs(script: string): string[] {
  if (!script.endsWith('server-child.js')) return [];
  const cpu = process.env.BENCH_CPU_PROF;
  const heap = process.env.BENCH_HEAP_SNAPSHOTS;
  return [...(cpu ? ['--cpu-prof', `--cpu-prof-dir=${cpu}`] : []), ...(heap ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${heap}`] : [])];
}

/** The server under test runs with the V8 flags and the malloc setting `custops serve` runs with (bin/custops.js, first line). */
function serverArgs(script: string): string[] {
  return script.endsWith('server-child.js') ? ['--max-semi-space-size=8', '--heap-growing-percent=50'] : [];
}

function serverEnv(script: string): NodeJS.ProcessEnv {
  return script.endsWith('server-child.js') ? { MALLOC_ARENA_MAX: '2' } : {};
}

/** Runs a TypeScript file with the pinned Node, on one CPU core when taskset is available. */
export function spawnPinned(core: number, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const node = [NODE, ...serverArgs(script), ...profileArgs(script), script];
  const [cmd, args] = canPin() ? ['taskset', ['-c', String(core), ...node]] : [node[0], node.slice(1)];
  return spawn(cmd, args, { env: { ...process.env, ...serverEnv(script), ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
}

/** The first stdout line of a child, parsed as JSON. */
function firstJsonLine<T>(child: ChildProcess, what: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${timeoutMs} ms`)), timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      clearTimeout(timer);
      lines.close();
      try {
        resolve(JSON.parse(line) as T);
      } catch {
        reject(new Error(`${what}: unexpected output ${line}`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with code ${code}`));
    });
  });
}

export interface PinnedServer {
  url: string;
  /** The server's process id (taskset execs Node in place), for reading its memory. */
  pid: number;
  stop(): Promise<void>;
}

/** Starts a server script that prints `{"url": …}` once listening; stop() sends SIGTERM and waits. */
/**
 * `custops serve` (bench/lib/server-child.js) on the server core, as every scenario runs it: loopback,
 * a free port, no Redis, warnings only, a fresh secret key unless the scenario gives its own, and
 * no release of the heap when quiet (CUSTOPS_IDLE_RELEASE_S=0) unless the scenario measures memory:
 * the throughput scenarios alternate the service's rounds with a baseline's on the same core, and a
 * release while the baseline runs would take the core from it for a moment.
 */
export function startServiceChild(settings: NodeJS.ProcessEnv & { DATABASE_URL: string; CUSTOPS_DATA_DIR: string }): Promise<PinnedServer> {
  return startPinnedServer('bench/lib/server-child.js', {
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    REDIS_URL: '',
    CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'),
    CUSTOPS_IDLE_RELEASE_S: '0',
    ...settings,
  });
}

export async function startPinnedServer(script: string, env: NodeJS.ProcessEnv, core = SERVER_CORE): Promise<PinnedServer> {
  const child = spawnPinned(core, script, env);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { url } = await firstJsonLine<{ url: string }>(child, script, 60_000);
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Default GET; a write scenario sends the same JSON body on every request. */
  method?: 'GET' | 'POST';
  body?: string;
  /** autocannon idReplacement: every `[<id>]` in the headers or body becomes a fresh unique id on each request. */
  uniqueIds?: boolean;
  /** A steady rate (requests per second over all connections) instead of as fast as the server answers. */
  overallRate?: number;
  /** Counts the responses without this header value (name in lower case), e.g. a replay's Idempotent-Replayed: true. */
  expectHeader?: { name: string; value: string };
}

/** What the load generator reports beyond LoadFigures: responses per status code, warm-up included separately. */
export interface LoadDetails {
  statuses: Record<string, number>;
  warmup_statuses: Record<string, number>;
  /** Responses (warm-up and measured) lacking `expectHeader`; 0 when none was asked for. */
  missing_header: number;
}

/** Runs autocannon in its own process on the load core and returns its figures. */
export async function runLoad(request: LoadRequest): Promise<LoadFigures & LoadDetails> {
  const child = spawnPinned(LOAD_CORE, 'bench/lib/load-child.ts', { BENCH_LOAD: JSON.stringify(request) });
  const limit = (request.durationSeconds + request.warmupSeconds + 60) * 1000;
  return firstJsonLine<LoadFigures & LoadDetails>(child, 'load generator', limit);
}

/** CPU time (user + system) a process has used, in milliseconds, from /proc (Linux); null elsewhere. */
export function cpuMsOf(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * The processes of a PostgreSQL server on this machine (backends, WAL writer, checkpointer…), by
 * their command name in /proc: what the database spends on the load is their CPU. Empty when the
 * server runs elsewhere or /proc cannot be read.
 */
export function postgresPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .filter((d) => {
        try {
          return readFileSync(`/proc/${d}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false; // gone since the listing
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}

/** CPU milliseconds of a set of processes, each by its pid (those that could not be read are left out). */
export function cpuMsOfEach(pids: number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const ms = cpuMsOf(pid);
    if (ms !== null) out.set(pid, ms);
  }
  return out;
}

/** Resident memory of a process in MiB, from /proc (Linux); null elsewhere. */
export function rssMbOf(pid: number): number | null {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 102.4) / 10 : null;
  } catch {
    return null;
  }
}
