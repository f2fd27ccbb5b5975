import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createInterface } from 'node:readline';
import type { LoadFigures } from './types.ts';

const NODE = 'node_modules/.bin/node';
/** The server under test gets one core, the load generator the other, so they never compete. */
export const SERVER_CORE = 1;
export const LOAD_CORE = 0;

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

/** Runs a TypeScript file with the pinned Node, on one CPU core when taskset is available. */
export function spawnPinned(core: number, script: string, env: NodeJS.ProcessEnv): ChildProcess {
  const [cmd, args] = canPin() ? ['taskset', ['-c', String(core), NODE, script]] : [NODE, [script]];
  return spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
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
  stop(): Promise<void>;
}

/** Starts a server script that prints `{"url": …}` once listening; stop() sends SIGTERM and waits. */
export async function startPinnedServer(script: string, env: NodeJS.ProcessEnv): Promise<PinnedServer> {
  const child = spawnPinned(SERVER_CORE, script, env);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const { url } = await firstJsonLine<{ url: string }>(child, script, 60_000);
  return {
    url,
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
