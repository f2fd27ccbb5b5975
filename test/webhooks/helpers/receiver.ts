import { createServer, type Server } from 'node:https';
import { createServer as createPlainServer, type IncomingHttpHeaders, type Server as PlainServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  raw: Buffer;
  at: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  /** Drop the connection without answering. */
  destroy?: boolean;
  /** Keep the request unanswered until `release()`. */
  hold?: boolean;
}

export interface Receiver {
  url(path: string): string;
  port: number;
  received: Received[];
  on(path: string, handler: (req: Received, n: number) => Reply): void;
  /** Resolves once `predicate` holds over the received requests (polls). */
  waitFor(predicate: (r: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  inFlight(): number;
  /** The most requests to `path` that were open at once (arrived, not yet answered). */
  peak(path: string): number;
  /** Answers every held request now. */
  release(): void;
  close(): Promise<void>;
  server: Server;
}

/** A real HTTPS receiver on 127.0.0.1 that records the raw bytes and headers of every request. */
export async function startReceiver(tls: { key: string; cert: string }): Promise<Receiver> {
  const received: Received[] = [];
  const handlers = new Map<string, (req: Received, n: number) => Reply>();
  const counts = new Map<string, number>();
  let inFlight = 0;
  const open = new Map<string, number>();
  const peaks = new Map<string, number>();
  const held: (() => void)[] = [];
  const server = createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    inFlight++;
    const opened = (open.get(req.url ?? '/') ?? 0) + 1;
    open.set(req.url ?? '/', opened);
    peaks.set(req.url ?? '/', Math.max(peaks.get(req.url ?? '/') ?? 0, opened));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      const rec: Received = { path, headers: req.headers, raw: Buffer.concat(chunks), at: Date.now() };
      received.push(rec);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const reply = handlers.get(path)?.(rec, n) ?? {};
      const answer = () => {
        inFlight--;
        open.set(path, open.get(path)! - 1);
        if (reply.destroy) return req.socket.destroy();
        res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...(reply.headers ?? {}) });
        res.end(reply.body ?? 'ok');
      };
      if (reply.hold) held.push(answer);
      else if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    received,
    url: (path) => `https://127.0.0.1:${port}${path}`,
    on: (path, handler) => void handlers.set(path, handler),
    inFlight: () => inFlight,
    peak: (path) => peaks.get(path) ?? 0,
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    async waitFor(predicate, timeoutMs = 20_000) {
      const end = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > end) throw new Error(`receiver: condition not met within ${timeoutMs} ms (${received.length} received)`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A plain-HTTP receiver on 127.0.0.1 recording raw bodies and headers; `status(n)` answers the n-th
 * request (1-based), 200 by default.
 */
export async function plainReceiver(
  status: (n: number) => number = () => 200,
): Promise<{ server: PlainServer; port: number; got: { raw: Buffer; headers: IncomingHttpHeaders }[] }> {
  const got: { raw: Buffer; headers: IncomingHttpHeaders }[] = [];
  const server = createPlainServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ raw: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(status(got.length)).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as AddressInfo).port, got };
}
