import { custops, freePort, waitForHttp, type Child } from '../../webhooks/helpers/processes.ts';

export interface Answer {
  status: number;
  /** When the request was sent and how long it took, in ms. */
  sentAt: number;
  ms: number;
  body: any;
  headers?: Record<string, string>;
  /** steadyLoad: the number the request was made with. */
  i?: number;
}

/** One HTTP call that never throws: a refused or reset connection is status 0. */
export async function request(url: string, init: RequestInit = {}, timeoutMs = 10_000): Promise<Answer> {
  const sentAt = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON (metrics text)
    }
    return { status: res.status, sentAt, ms: Date.now() - sentAt, body, headers: Object.fromEntries(res.headers) };
  } catch (err) {
    return { status: 0, sentAt, ms: Date.now() - sentAt, body: String(err) };
  }
}

export function bearer(key: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra };
}

/** `custops serve` as a child on a free port, ready to answer. */
export async function startServe(env: Record<string, string>, children: Child[]): Promise<{ child: Child; url: string }> {
  const port = await freePort();
  const child = custops(['serve', '--port', String(port)], env);
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  // A start can take a while on a machine busy with other suites.
  await waitForHttp(`${url}/healthz`, child, 90_000);
  return { child, url };
}

export function alive(child: Child): boolean {
  return child.proc.exitCode === null && child.proc.signalCode === null;
}

/** Log lines (JSON, one a line) of a child whose `msg` matches. */
export function logLines(child: Child, msg: RegExp): Array<Record<string, unknown>> {
  return child
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return {};
      }
    })
    .filter((o) => typeof o.msg === 'string' && msg.test(o.msg));
}

/** Repeats `fn` on `workers` concurrent loops until `stop()` is called; collects every answer. */
export function steadyLoad(workers: number, fn: (i: number) => Promise<Answer>): { answers: Answer[]; stop(): Promise<void> } {
  const answers: Answer[] = [];
  let running = true;
  let n = 0;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const i = n++;
      answers.push({ ...(await fn(i)), i });
    }
  });
  return {
    answers,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
