import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..', '..');

export async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

export interface Child {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `custops <args>` as a real child process (the pinned Node running this test). */
export function custops(args: string[], env: Record<string, string>): Child {
  const proc = spawn(process.execPath, [join(ROOT, 'bin', 'custops.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (c) => (out += c));
  proc.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  return { proc, output: () => out, exited };
}

/** `what` names the wait in the time-out's message; as a function it is read at the time-out (a child's output by then). */
export async function waitUntil(what: string | (() => string), check: () => Promise<boolean> | boolean, timeoutMs = 30_000, everyMs = 50): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function waitForHttp(url: string, child: Child, timeoutMs = 20_000): Promise<void> {
  await waitUntil(
    () => `${url} (output: ${child.output().slice(-500)})`,
    async () => {
      if (child.proc.exitCode !== null) throw new Error(`custops exited early: ${child.output()}`);
      try {
        return (await fetch(url)).ok;
      } catch {
        return false;
      }
    },
    timeoutMs,
  );
}
