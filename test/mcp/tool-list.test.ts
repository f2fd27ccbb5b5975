import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { grantsAny, type Scope } from '../../src/modules/api-keys/scopes.ts';
import { onEachEngineAtOnce } from '../helpers/engines.ts';
import { httpClient, startServed, transports, type Served, type ServedAccount } from './helpers.ts';

interface Operation {
  method: string;
  path: string;
  op: {
    operationId: string;
    security?: object[];
    responses?: Record<string, { content?: Record<string, unknown> }>;
    'x-required-scopes'?: Scope[];
    parameters?: { name: string; in: string }[];
    requestBody?: object;
  };
}

/** The secured v1 operations of the service's own OpenAPI document. */
async function securedOperations(url: string): Promise<Operation[]> {
  const doc = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, Operation['op']>> };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!path.startsWith('/api/v1/') || !(op.security ?? []).some((s) => 'bearerAuth' in s)) continue;
      // A stream (the event stream) cannot be one tool result: operations answering anything but JSON or nothing are not tools.
      const success = Object.entries(op.responses ?? {}).filter(([code]) => /^2\d\d$/.test(code));
      if (success.some(([, r]) => r.content && !r.content['application/json'])) continue;
      out.push({ method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

async function toolNames(client: Client) {
  const { tools } = await client.listTools();
  await client.close();
  return tools;
}

onEachEngineAtOnce('MCP tools/list, each engine at once', (engine) => {
  describe(`MCP tools/list [${engine}]`, () => {
    let served: Served;
    let a: ServedAccount;
    let ops: Operation[];
    before(async () => {
      served = await startServed(engine);
      a = await served.account();
      ops = await securedOperations(served.url);
    });
    after(() => served.close());

    test('the OpenAPI document has secured operations to compare with (not an empty list)', () => {
      assert.ok(ops.length >= 40, `only ${ops.length} secured operations`);
      assert.ok(ops.some((o) => o.op.operationId === 'listDeals'));
    });

    for (const { name, connect } of transports(() => served)) {
      test(`${name}: a full key sees exactly one tool per secured operation, named by operationId`, async () => {
        const tools = await toolNames(await connect(a.key));
        assert.deepEqual(tools.map((t) => t.name).sort(), ops.map((o) => o.op.operationId).sort());
        assert.ok(!tools.some((t) => t.name === 'getOpenApiDocument'), 'public operations are not tools');
      });

      test(`${name}: a read key sees every read operation and no tool that writes`, async () => {
        const { secret } = await a.keyWith(['read']);
        const tools = await toolNames(await connect(secret));
        const expected = ops
          .filter((o) => o.method === 'GET')
          .map((o) => o.op.operationId)
          .sort();
        assert.deepEqual(tools.map((t) => t.name).sort(), expected);
        for (const t of tools) assert.equal(t.annotations?.readOnlyHint, true, t.name);
      });

      test(`${name}: a single-scope key sees only the tools its scope grants`, async () => {
        for (const scope of ['deals:write', 'analytics:read'] as Scope[]) {
          const { secret } = await a.keyWith([scope]);
          const tools = await toolNames(await connect(secret));
          const expected = ops
            .filter((o) => grantsAny(new Set([scope]), o.op['x-required-scopes'] ?? []))
            .map((o) => o.op.operationId)
            .sort();
          assert.ok(expected.length > 0);
          assert.deepEqual(tools.map((t) => t.name).sort(), expected, scope);
        }
      });
    }

    test('a 2025-era client (initialize handshake, no per-request envelope) gets the same tools and answers', async () => {
      const modern = await toolNames(await httpClient(served.url, a.key, 'modern'));
      const legacy = await httpClient(served.url, a.key, 'legacy');
      assert.equal(legacy.getNegotiatedProtocolVersion()?.startsWith('2025'), true, legacy.getNegotiatedProtocolVersion());
      const call = await legacy.callTool({ name: 'listOrgs', arguments: {} });
      assert.deepEqual(call.structuredContent, (await served.rest('GET', '/api/v1/orgs', a.key)).body);
      assert.deepEqual(await toolNames(legacy), modern);
    });

    test('each tool: inputSchema joins path (required), query and body; annotations follow the method; outputSchema where success is an object', async () => {
      const tools = await toolNames(await httpClient(served.url, a.key));
      const byName = new Map(tools.map((t) => [t.name, t]));
      for (const { method, op } of ops) {
        const tool = byName.get(op.operationId)!;
        const props = tool.inputSchema.properties ?? {};
        for (const p of op.parameters ?? []) {
          if (p.in !== 'path' && p.in !== 'query') continue;
          assert.ok(p.name in props, `${op.operationId}: parameter ${p.name}`);
          if (p.in === 'path') assert.ok(tool.inputSchema.required?.includes(p.name), `${op.operationId}: ${p.name} required`);
        }
        if (method !== 'GET') assert.ok('idempotency_key' in props, `${op.operationId} accepts idempotency_key`);
        assert.deepEqual(
          tool.annotations,
          {
            readOnlyHint: method === 'GET',
            destructiveHint: method === 'DELETE',
            idempotentHint: ['GET', 'PUT', 'DELETE'].includes(method),
            openWorldHint: false,
          },
          op.operationId,
        );
        assert.ok(tool.description && tool.description.length > 0, op.operationId);
      }
      const createDeal = byName.get('createDeal')!;
      assert.ok(createDeal.inputSchema.required?.includes('title'));
      assert.equal(createDeal.outputSchema?.type, 'object');
      assert.ok(Object.hasOwn(createDeal.outputSchema?.properties ?? {}, 'status'));
      const listDeals = byName.get('listDeals')!;
      assert.deepEqual(Object.keys(listDeals.outputSchema?.properties ?? {}).sort(), ['data', 'pagination']);
      const del = byName.get('deleteWebhookEndpoint')!;
      assert.equal(del.outputSchema, undefined, 'a 204 answer has no output schema');
      assert.equal(del.annotations?.destructiveHint, true);
    });
  });
});
