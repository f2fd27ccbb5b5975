import { Agent, request as httpRequest } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/client';
import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { createScratchDatabase, seedDeals, type Engine } from '../lib/deal-data.ts';
import { onEachEngine } from '../lib/engines.ts';
import { cpuMsOf, log, runLoad, startServiceChild, type LoadRequest } from '../lib/processes.ts';
import { combine, ROUNDS, type Combined, type Load } from '../lib/rounds.ts';
import type { BenchOptions } from '../lib/types.ts';

export const name = 'mcp-tools';
export const description =
  'The listDeals MCP tool call (POST /mcp, 2026-07-28 stateless request) against GET /api/v1/deals with the same key and ' +
  'arguments, over 20k deals: throughput and service CPU per request in alternating rounds on warm keep-alive connections, ' +
  'and latency on one warm connection each, request by request. SQLite, and PostgreSQL when configured.';

const DEALS = 20_000;
const GOALS = { ratio: 0.8, p50_gap_ms: 1 };
// The stateless revision (the SDK exports constants for the 2025 handshake revisions only).
const REVISION = '2026-07-28';
const ARGS = { status: 'qualified', sort: 'updated_at', direction: 'desc', per_page: 25 };
const REST_PATH = `/api/v1/deals?${new URLSearchParams(Object.entries(ARGS).map(([k, v]): [string, string] => [k, String(v)]))}`;
/** Requests per side of the latency pass, the first tenth unmeasured (warm-up). */
const LATENCY_PAIRS = 2_000;

/** One self-contained modern request, as the SDK client sends it (envelope in `_meta`, routing headers). */
function toolCallBody(): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'listDeals',
      arguments: ARGS,
      _meta: {
        [PROTOCOL_VERSION_META_KEY]: REVISION,
        [CLIENT_INFO_META_KEY]: { name: 'custops-bench', version: '1.0.0' },
        [CLIENT_CAPABILITIES_META_KEY]: {},
      },
    },
  });
}

type Target = Omit<LoadRequest, 'connections' | 'durationSeconds' | 'warmupSeconds'>;

function summary(f: Combined) {
  return { req_per_s: f.req_per_s, p50_ms: f.p50_ms, p99_ms: f.p99_ms, requests: f.requests, non_2xx: f.non_2xx, errors: f.errors, rounds: f.rounds };
}

const answered = (l: Load) => [l.statuses, l.warmup_statuses].flatMap((s) => Object.values(s)).reduce((a, b) => a + b, 0);
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * Alternating rounds (REST, tool, REST, tool…) as bench/lib/rounds.ts runs them, with the service's
 * CPU time read around each run: CPU per answered request is the figure a busy machine disturbs
 * least (throughput there depends on what else got the core).
 */
async function throughput(pid: number, rest: Target, tool: Target, options: BenchOptions, engine: Engine) {
  const seconds = options.durationSeconds / ROUNDS;
  const runs = { rest: [] as Load[], tool: [] as Load[] };
  const cpu = { rest: 0, tool: 0 };
  for (let i = 0; i < ROUNDS; i++) {
    log(`${name}: ${engine}: round ${i + 1}/${ROUNDS}: REST, then the tool call`);
    for (const [side, target] of [
      ['rest', rest],
      ['tool', tool],
    ] as const) {
      const before = cpuMsOf(pid);
      runs[side].push(
        await runLoad({ ...target, connections: options.connections, durationSeconds: seconds, warmupSeconds: i === 0 ? options.warmupSeconds : 0 }),
      );
      const after = cpuMsOf(pid);
      cpu[side] += before === null || after === null ? Number.NaN : after - before;
    }
  }
  const cpuUs = (side: 'rest' | 'tool') => {
    const n = runs[side].reduce((sum, l) => sum + answered(l), 0);
    return Number.isFinite(cpu[side]) ? Math.round((cpu[side] * 1000) / n) : null;
  };
  return {
    rest: combine(runs.rest, seconds, options.warmupSeconds > 0),
    tool: combine(runs.tool, seconds, options.warmupSeconds > 0),
    cpuUs: { rest: cpuUs('rest'), tool: cpuUs('tool') },
  };
}

/** One request on a keep-alive agent; resolves with its status and milliseconds from send to the last byte. */
function timed(agent: Agent, url: URL, method: string, headers: Record<string, string>, body?: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = httpRequest(
      url,
      { agent, method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        res.on('data', () => {});
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 1000) / 1000;
}

/**
 * Latency without queueing: each side on its own warm keep-alive connection, one request at a
 * time, alternating request by request, so both see the same moments of a shared machine.
 * Timed to the microsecond here (autocannon's histogram counts whole milliseconds).
 */
async function latency(url: string, auth: Record<string, string>, mcpHeaders: Record<string, string>, body: string) {
  const agents = { rest: new Agent({ keepAlive: true, maxSockets: 1 }), tool: new Agent({ keepAlive: true, maxSockets: 1 }) };
  const times = { rest: [] as number[], tool: [] as number[] };
  let failed = 0;
  try {
    for (let i = 0; i < LATENCY_PAIRS; i++) {
      const r = await timed(agents.rest, new URL(REST_PATH, url), 'GET', auth);
      const t = await timed(agents.tool, new URL('/mcp', url), 'POST', mcpHeaders, body);
      if (r.status !== 200 || t.status !== 200) failed++;
      if (i < LATENCY_PAIRS / 10) continue;
      times.rest.push(r.ms);
      times.tool.push(t.ms);
    }
  } finally {
    agents.rest.destroy();
    agents.tool.destroy();
  }
  const figures = (ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    return { p50_ms: percentile(sorted, 0.5), p99_ms: percentile(sorted, 0.99) };
  };
  return { requests_each: times.rest.length, failed, rest: figures(times.rest), tool: figures(times.tool) };
}

/**
 * The kept counts of the account's deal list (whole list and per status), recounted from the rows:
 * the PostgreSQL seed writes its rows with the triggers that keep them switched off, and the list
 * reads its total from them.
 */
async function recountDealList(h: DatabaseHandle, accountId: number): Promise<void> {
  await h.db.transaction().execute(async (trx) => {
    await sql`delete from list_counts where account_id = ${accountId} and list = 'deals'`.execute(trx);
    await sql`insert into list_counts (account_id, list, bucket, shard, n)
      select account_id, 'deals', '', 0, count(*) from deals where account_id = ${accountId} group by account_id`.execute(trx);
    await sql`insert into list_counts (account_id, list, bucket, shard, n)
      select account_id, 'deals', 'status:' || status, 0, count(*) from deals where account_id = ${accountId} group by account_id, status`.execute(trx);
  });
}

async function runEngine(engine: Engine, options: BenchOptions): Promise<void> {
  const db = await createScratchDatabase(engine);
  try {
    const seed = await seedDeals(db.handle, { deals: DEALS, activities: 0 });
    if (engine === 'postgres') await recountDealList(db.handle, seed.accountId);
    const server = await startServiceChild({
      DATABASE_URL: db.url,
      CUSTOPS_DATA_DIR: db.dir,
    });
    try {
      const auth = { authorization: `Bearer ${seed.key}` };
      const mcpHeaders = {
        ...auth,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': REVISION,
        'mcp-method': 'tools/call',
        'mcp-name': 'listDeals',
      };
      const body = toolCallBody();
      // Both answers must be the same deals before their speed is worth comparing.
      const rest = await fetch(server.url + REST_PATH, { headers: auth });
      const restJson = (await rest.json()) as { data: unknown[] };
      const tool = await fetch(`${server.url}/mcp`, { method: 'POST', headers: mcpHeaders, body });
      const toolJson = (await tool.json()) as { result?: { structuredContent?: unknown; isError?: boolean } };
      if (rest.status !== 200 || restJson.data.length !== 25) throw new Error(`REST answered ${rest.status} with ${restJson.data?.length} deals`);
      if (tool.status !== 200 || !isDeepStrictEqual(toolJson.result?.structuredContent, restJson)) {
        throw new Error(`the tool call does not answer the REST body: ${JSON.stringify(toolJson).slice(0, 300)}`);
      }

      const load = await throughput(
        server.pid,
        { url: server.url + REST_PATH, headers: auth },
        { url: `${server.url}/mcp`, headers: mcpHeaders, method: 'POST', body },
        options,
        engine,
      );
      if (load.rest.non_2xx + load.tool.non_2xx + load.rest.errors + load.tool.errors > 0) {
        throw new Error(`failed requests: ${JSON.stringify({ rest: load.rest.statuses, tool: load.tool.statuses })}`);
      }
      log(`${name}: ${engine}: latency on one connection each, ${LATENCY_PAIRS} requests a side, alternating`);
      const one = await latency(server.url, auth, mcpHeaders, body);
      if (one.failed > 0) throw new Error(`${one.failed} latency pairs failed`);
      const ratio = round3(load.tool.req_per_s / load.rest.req_per_s);
      const p50Gap = Math.round((one.tool.p50_ms - one.rest.p50_ms) * 1000) / 1000;
      const figures = {
        scenario: name,
        engine,
        deals: DEALS,
        connections: options.connections,
        duration_s: options.durationSeconds,
        ...summary(load.tool),
        baseline: summary(load.rest),
        // Tool-call throughput as a fraction of the same REST request's, over all rounds and per round.
        ratio,
        ratio_rounds: load.tool.rounds.map((n, i) => round3(n / load.rest.rounds[i])),
        // Service CPU (user + system) per answered request, warm-up included, and REST's as a fraction of the tool call's.
        cpu_us_per_request: load.cpuUs,
        cpu_ratio: load.cpuUs.rest && load.cpuUs.tool ? round3(load.cpuUs.rest / load.cpuUs.tool) : null,
        one_connection: one,
        p50_gap_ms: p50Gap,
        goals: GOALS,
        goal_met: ratio >= GOALS.ratio && p50Gap <= GOALS.p50_gap_ms,
      };
      if (!figures.goal_met) log(`GOAL MISSED: ${engine} ratio ${ratio} (goal ${GOALS.ratio}), p50 gap ${p50Gap} ms (goal ${GOALS.p50_gap_ms})`);
      process.stdout.write(JSON.stringify(figures) + '\n');
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
  }
}

/** One JSON line per engine. */
export const run = onEachEngine(name, runEngine);
