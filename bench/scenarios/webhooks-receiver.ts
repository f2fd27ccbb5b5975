// The webhook receiver of the `webhooks` scenario, in its own process: HTTPS on 127.0.0.1,
// answers 204 at once, remembers when each X-Service-Event-Id arrived, and how long after the
// event's own `timestamp` (taken in the write's transaction, so at or before its commit) it did.
// GET /__stats reports and resets.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';

let arrivals: Record<string, number> = {};
let lags: number[] = [];
let count = 0;
const server = createServer(
  { key: readFileSync(process.env.BENCH_TLS_KEY!), cert: readFileSync(process.env.BENCH_TLS_CERT!), keepAliveTimeout: 60_000 },
  (req, res) => {
    if (req.method === 'GET' && req.url === '/__stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ count, arrivals, lags }));
      arrivals = {};
      lags = [];
      count = 0;
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      // The wall clock, as the event's timestamp and the bench's commit times are read: shared by every
      // process. (performance.timeOrigin + performance.now() follows the monotonic clock from the
      // process's start, and on a machine whose wall clock is being slewed the two part by milliseconds
      // a second: 45 ms in 20 s was seen here, which made lags read negative.)
      const at = Date.now();
      count++;
      const id = req.headers['x-service-event-id'];
      if (typeof id === 'string') arrivals[id] = at;
      const stamp = Date.parse((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp?: string }).timestamp ?? '');
      if (Number.isFinite(stamp)) lags.push(at - stamp);
      res.writeHead(204).end();
    });
  },
);
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ url: `https://127.0.0.1:${(server.address() as AddressInfo).port}` }) + '\n');
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
