// The baseline: a bare Fastify answering one route with a pre-serialized body. No auth, no
// validation, no database: the ceiling of this HTTP stack on this machine.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.env.BENCH_BODY_FILE!, 'utf8');
const app = Fastify({ logger: false });
// BENCH_METHOD / BENCH_STATUS let a write scenario compare against a bare POST (its JSON body parsed, as the API must).
const status = Number(process.env.BENCH_STATUS ?? 200);
app.route({
  method: process.env.BENCH_METHOD === 'POST' ? 'POST' : 'GET',
  url: process.env.BENCH_PATH!,
  handler: async (_request, reply) => reply.code(status).header('content-type', 'application/json; charset=utf-8').send(body),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` }) + '\n');
process.once('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
