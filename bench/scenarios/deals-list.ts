import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDealsDatabase } from '../lib/data.ts';
import { log, runLoad, startPinnedServer, startServiceChild } from '../lib/processes.ts';
import type { BenchOptions, LoadFigures } from '../lib/types.ts';

export const name = 'deals-list';
export const description =
  'GET /api/v1/deals?status=qualified&sort=updated_at&direction=desc&per_page=25 over 100k deals in one account (SQLite), ' +
  'against a bare Fastify answering the same pre-serialized body with no auth and no database.';

const DEALS = 100_000;
const PATH = '/api/v1/deals';
const QUERY = '?status=qualified&sort=updated_at&direction=desc&per_page=25';

/** The answer must be the real one before it is worth measuring. */
function checkBody(body: string): void {
  const parsed = JSON.parse(body) as { data: { status: string; updated_at: string }[]; pagination: { total: number } };
  if (parsed.data.length !== 25) throw new Error(`expected 25 deals, got ${parsed.data.length}`);
  if (parsed.data.some((d) => d.status !== 'qualified')) throw new Error('status filter not applied');
  if (parsed.data.some((d, i) => i > 0 && d.updated_at > parsed.data[i - 1].updated_at)) throw new Error('not sorted by updated_at desc');
  if (parsed.pagination.total < DEALS / 10) throw new Error(`implausible total ${parsed.pagination.total}`);
}

function summary(f: LoadFigures) {
  return { req_per_s: f.req_per_s, p50_ms: f.p50_ms, p99_ms: f.p99_ms, requests: f.requests, non_2xx: f.non_2xx, errors: f.errors };
}

export async function run(options: BenchOptions): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'custops-bench-'));
  try {
    const started = Date.now();
    const db = join(dir, 'bench.db');
    const account = await generateDealsDatabase(db, { deals: DEALS });
    const generateMs = Date.now() - started;
    log(`${name}: ${DEALS} deals generated in ${generateMs} ms`);

    const headers = { authorization: `Bearer ${account.key}` };
    const load = { headers, connections: options.connections, durationSeconds: options.durationSeconds, warmupSeconds: options.warmupSeconds };
    const server = await startServiceChild({
      DATABASE_URL: `sqlite:${db}`,
      CUSTOPS_DATA_DIR: dir,
    });
    let body: string;
    let app: LoadFigures;
    try {
      const res = await fetch(server.url + PATH + QUERY, { headers });
      body = await res.text();
      if (res.status !== 200) throw new Error(`server answered ${res.status}: ${body}`);
      checkBody(body);
      log(`${name}: measuring the API at ${server.url}`);
      app = await runLoad({ ...load, url: server.url + PATH + QUERY });
    } finally {
      await server.stop();
    }

    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, body);
    const bare = await startPinnedServer('bench/lib/baseline-child.ts', { BENCH_BODY_FILE: bodyFile, BENCH_PATH: PATH });
    let baseline: LoadFigures;
    try {
      const same = await (await fetch(bare.url + PATH + QUERY)).text();
      if (same !== body) throw new Error('the baseline does not answer the same body');
      log(`${name}: measuring the baseline at ${bare.url}`);
      baseline = await runLoad({ ...load, headers: {}, url: bare.url + PATH + QUERY });
    } finally {
      await bare.stop();
    }

    const figures = {
      scenario: name,
      deals: DEALS,
      generate_ms: generateMs,
      connections: options.connections,
      duration_s: options.durationSeconds,
      response_bytes: Buffer.byteLength(body),
      ...summary(app),
      baseline: summary(baseline),
      // Throughput of the real API as a fraction of the bare framework's on the same core.
      ratio: Math.round((app.req_per_s / baseline.req_per_s) * 1000) / 1000,
    };
    process.stdout.write(JSON.stringify(figures) + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
