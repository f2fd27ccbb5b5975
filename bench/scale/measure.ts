import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { SERVER_CORE, spawnPinned } from '../lib/processes.ts';

export interface Timing {
  p50_ms: number;
  p99_ms: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const round = (ms: number) => Math.round(ms * 100) / 100;

export function timing(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50_ms: round(quantile(sorted, 0.5)), p99_ms: round(quantile(sorted, 0.99)) };
}

/**
 * `count` requests per target one after another, the targets taking turns (after a few
 * unmeasured rounds): the latency of a single request on each, with the machine's noise
 * spread over all of them alike.
 */
export async function interleaved(base: string, targets: { key: string; path: (i: number) => string }[], count: number): Promise<Timing[]> {
  const samples: number[][] = targets.map(() => []);
  for (let i = -3; i < count; i++) {
    for (const [k, t] of targets.entries()) {
      const path = t.path(i + 1000);
      const started = performance.now();
      const res = await fetch(base + path, { headers: { authorization: `Bearer ${t.key}` } });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${body.slice(0, 200)}`);
      if (i >= 0) samples[k].push(performance.now() - started);
    }
  }
  return samples.map(timing);
}

/** `total` writes with `width` in flight: latency of each and the throughput. */
export async function concurrent(
  base: string,
  key: string,
  width: number,
  total: number,
  request: (i: number) => { method: string; path: string; body: unknown },
): Promise<Timing & { req_per_s: number }> {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < total) {
        const r = request(next++);
        const t0 = performance.now();
        const res = await fetch(base + r.path, {
          method: r.method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify(r.body),
        });
        const text = await res.text();
        if (res.status >= 300) throw new Error(`${r.method} ${r.path}: ${res.status} ${text.slice(0, 200)}`);
        samples.push(performance.now() - t0);
      }
    }),
  );
  return { ...timing(samples), req_per_s: Math.round((total * 1000) / (performance.now() - started)) };
}

export interface ScaleServer {
  url: string;
  child: ChildProcess;
  /** Resident memory of the server process, MB. */
  rssMb(): number;
  stop(): Promise<void>;
}

/** The real service on the server core (bench/lib/server-child.js), with its process at hand for RSS. */
export async function startServer(env: NodeJS.ProcessEnv): Promise<ScaleServer> {
  const child = spawnPinned(SERVER_CORE, 'bench/lib/server-child.js', env);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => {
      lines.close();
      resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  // Under taskset the child is taskset's exec'd image, so its pid is the node process.
  const rssMb = () => {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : NaN;
  };
  return {
    url: `${url}/api/v1`,
    child,
    rssMb,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
