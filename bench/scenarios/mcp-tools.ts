import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/client';
import { generateDealsDatabase } from '../lib/data.ts';
import { log, startPinnedServer } from '../lib/processes.ts';
import { alternate, type Combined } from '../lib/rounds.ts';
import type { BenchOptions } from '../lib/types.ts';

export const name = 'mcp-tools';
export const description =
  'The listDeals MCP tool call (POST /mcp, 2026-07-28 stateless request) against GET /api/v1/deals with the same key and ' +
  'arguments, over 20k deals (SQLite), in alternating rounds on warm keep-alive connections.';

const DEALS = 20_000;
// The stateless revision (the SDK exports constants for the 2025 handshake revisions only).
const REVISION = '2026-07-28';
const ARGS = { status: 'qualified', sort: 'updated_at', direction: 'desc', per_page: 25 };
const REST_PATH = `/api/v1/deals?${new URLSearchParams(Object.entries(ARGS).map(([k, v]): [string, string] => [k, String(v)]))}`;

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

function summary(f: Combined) {
  return { req_per_s: f.req_per_s, p50_ms: f.p50_ms, p99_ms: f.p99_ms, requests: f.requests, non_2xx: f.non_2xx, errors: f.errors, rounds: f.rounds };
}

export async function run(options: BenchOptions): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'custops-bench-mcp-'));
  try {
    const db = join(dir, 'bench.db');
    const account = await generateDealsDatabase(db, { deals: DEALS });
    const server = await startPinnedServer('bench/lib/server-child.ts', {
      DATABASE_URL: `sqlite:${db}`, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', REDIS_URL: '',
      CUSTOPS_SECRET_KEY: randomBytes(32).toString('hex'), CUSTOPS_DATA_DIR: dir,
    });
    try {
      const auth = { authorization: `Bearer ${account.key}` };
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

      log(`${name}: measuring GET /api/v1/deals and the listDeals tool at ${server.url} in alternating rounds`);
      const [restLoad, toolLoad] = await alternate(
        { url: server.url + REST_PATH, headers: auth },
        { url: `${server.url}/mcp`, headers: mcpHeaders, method: 'POST', body },
        options,
        (round) => log(`${name}: round ${round}`),
      );
      // Under saturation p50 is mostly queueing, so the latency a tool call adds is measured on one connection.
      log(`${name}: the same pair on one connection, for latency`);
      const [restOne, toolOne] = await alternate(
        { url: server.url + REST_PATH, headers: auth },
        { url: `${server.url}/mcp`, headers: mcpHeaders, method: 'POST', body },
        { ...options, connections: 1 },
      );
      const ratio = Math.round((toolLoad.req_per_s / restLoad.req_per_s) * 1000) / 1000;
      const p50Gap = Math.round((toolOne.p50_ms - restOne.p50_ms) * 100) / 100;
      process.stdout.write(
        JSON.stringify({
          scenario: name,
          deals: DEALS,
          connections: options.connections,
          duration_s: options.durationSeconds,
          ...summary(toolLoad),
          baseline: summary(restLoad),
          // Tool-call throughput as a fraction of the same REST request's (goal ≥ 0.8), and the p50 gap on one connection (goal ≤ 1 ms).
          one_connection: { tool: summary(toolOne), rest: summary(restOne) },
          ratio,
          p50_gap_ms: p50Gap,
          goal_met: ratio >= 0.8 && p50Gap <= 1,
        }) + '\n',
      );
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
