import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ProtocolError, type Client } from '@modelcontextprotocol/client';
import { onEachEngineAtOnce } from '../helpers/engines.ts';
import { httpClient, JSONRPC_LIST, rawMcp, startServed, stdioClient, type Served, type ServedAccount } from './helpers.ts';

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

function errorOf(result: ToolResult): Record<string, any> {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined, 'an error has no structuredContent');
  const content = result.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  return JSON.parse(content[0].text);
}

async function rejectsWith(promise: Promise<unknown>, code: number, message: RegExp) {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ProtocolError, String(err));
    assert.equal(err.code, code);
    assert.match(err.message, message);
    return true;
  });
}

/** A call that reaches the tools/call handler of a fresh stateless server, the way a 2025-era client sends it. */
function rawCall(params: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params });
}

const ROOT = join(import.meta.dirname, '..', '..');

onEachEngineAtOnce('MCP bad input, each engine at once', (engine) => {
  describe(`MCP bad input [${engine}]`, () => {
    let served: Served;
    let a: ServedAccount;
    let other: ServedAccount;
    let client: Client;
    let dealsBefore: number;

    before(async () => {
      served = await startServed(engine);
      a = await served.account();
      other = await served.account();
      client = await httpClient(served.url, a.key);
      const org = await served.rest('POST', '/api/v1/orgs', other.key, { name: 'Other Co' });
      await served.rest('POST', '/api/v1/deals', other.key, { org_id: org.body.id, title: 'Theirs' });
      dealsBefore = (await served.rest('GET', '/api/v1/deals', a.key)).body.pagination.total;
    });
    after(async () => {
      await client?.close();
      await served?.close();
    });

    test('no key, an unknown key, a revoked key, a session cookie alone: 401 in the error model with WWW-Authenticate: Bearer', async () => {
      const revoked = await a.keyWith(['read']);
      await served.revoke(revoked.id);
      const cases: Record<string, string>[] = [
        {},
        { authorization: 'Bearer cok_not_a_real_key' },
        { authorization: `Bearer ${revoked.secret}` },
        { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
        { cookie: 'custops_session=abc' },
      ];
      for (const headers of cases) {
        const res = await rawMcp(served.url, JSONRPC_LIST, headers);
        assert.equal(res.status, 401, JSON.stringify(headers));
        assert.equal(res.headers.get('www-authenticate'), 'Bearer');
        assert.equal(res.json.error, 'unauthorized');
        assert.match(res.json.request_id, /^req_/);
      }
      // The SDK client reports the 401 as an HTTP error.
      await assert.rejects(httpClient(served.url, 'cok_wrong'), /401|authenticat/i);
    });

    test('GET and DELETE on /mcp: 405 with Allow: POST', async () => {
      for (const method of ['GET', 'DELETE']) {
        const res = await rawMcp(served.url, '', { authorization: `Bearer ${a.key}` }, method);
        assert.equal(res.status, 405, method);
        assert.equal(res.headers.get('allow'), 'POST');
        assert.equal(res.json.error, 'method_not_allowed');
      }
    });

    test('malformed JSON: JSON-RPC parse error with HTTP 400; a message that is not JSON-RPC: invalid request with HTTP 400', async () => {
      const auth = { authorization: `Bearer ${a.key}` };
      for (const body of ['{"jsonrpc":"2.0",', 'not json', '']) {
        const res = await rawMcp(served.url, body, auth);
        assert.equal(res.status, 400, body);
        assert.equal(res.json.error.code, -32700, res.text);
      }
      for (const body of ['{"hello":"world"}', '{"jsonrpc":"1.0","id":1,"method":"tools/list"}', '42']) {
        const res = await rawMcp(served.url, body, auth);
        assert.equal(res.status, 400, body);
        assert.equal(res.json.error.code, -32600, res.text);
      }
    });

    test('a body that is not application/json: 415; X-Service-Signature is not used on /mcp', async () => {
      const res = await rawMcp(served.url, JSONRPC_LIST, { authorization: `Bearer ${a.key}`, 'content-type': 'text/plain' });
      assert.equal(res.status, 415);
      assert.equal(res.json.error, 'unsupported_media_type');
      const signed = await rawMcp(served.url, JSONRPC_LIST, { authorization: `Bearer ${a.key}`, 'x-service-signature': 'deadbeef' });
      assert.equal(signed.status, 200, signed.text);
    });

    test('a body over 1 MiB: 413 payload_too_large', async () => {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listDeals', arguments: { q: 'x'.repeat(1024 * 1024) } } });
      const res = await rawMcp(served.url, big, { authorization: `Bearer ${a.key}` });
      assert.equal(res.status, 413);
      assert.equal(res.json.error, 'payload_too_large');
    });

    test('an unknown tool, a tool outside the key scopes, arguments that are not an object: -32602', async () => {
      await rejectsWith(client.callTool({ name: 'dropDatabase', arguments: {} }), -32602, /Unknown tool: dropDatabase/);
      const { secret } = await a.keyWith(['read']);
      const reader = await httpClient(served.url, secret);
      try {
        await rejectsWith(reader.callTool({ name: 'createDeal', arguments: { org_id: 1, title: 'x' } }), -32602, /Unknown tool: createDeal/);
      } finally {
        await reader.close();
      }
      for (const args of [[1, 2], 'text', 5]) {
        const res = await rawMcp(served.url, rawCall({ name: 'listDeals', arguments: args }), { authorization: `Bearer ${a.key}` });
        const message = res.json ?? JSON.parse(/data: (.*)/.exec(res.text)![1]);
        assert.equal(message.error?.code, -32602, res.text);
      }
      assert.equal((await served.rest('GET', '/api/v1/deals', a.key)).body.pagination.total, dealsBefore);
    });

    test("invalid arguments: isError with the API's validation_error naming the field, nothing written", async () => {
      const org = (await client.callTool({ name: 'createOrg', arguments: { name: 'Mine' } })).structuredContent as { id: number };
      const before = (await served.rest('GET', '/api/v1/deals', a.key)).body.pagination.total;
      const cases: [string, Record<string, unknown>, string][] = [
        ['createDeal', { org_id: org.id }, 'title'],
        ['createDeal', { org_id: org.id, title: 'x', status: 'bogus' }, 'status'],
        ['createDeal', { org_id: org.id, title: 'x', surprise: 1 }, 'surprise'],
        ['listDeals', { status: 'bogus' }, 'status'],
        ['getDeal', { id: 'abc' }, 'id'],
        ['getDeal', {}, 'id'],
      ];
      for (const [name, args, field] of cases) {
        const error = errorOf(await client.callTool({ name, arguments: args }));
        assert.equal(error.error, 'validation_error', `${name} ${JSON.stringify(args)}`);
        assert.equal(error.status, 422);
        assert.ok(field in error.fields, `${name}: ${JSON.stringify(error.fields)} names ${field}`);
        assert.match(error.request_id, /^req_/);
      }
      assert.equal((await served.rest('GET', '/api/v1/deals', a.key)).body.pagination.total, before);
    });

    test("another account's ids: isError with *_not_found, nothing revealed or written", async () => {
      const theirs = (await served.rest('GET', '/api/v1/deals', other.key)).body.data[0];
      const read = errorOf(await client.callTool({ name: 'getDeal', arguments: { id: theirs.id } }));
      assert.equal(read.error, 'deal_not_found');
      assert.equal(read.status, 404);
      assert.ok(!JSON.stringify(read).includes('Theirs'));
      const write = errorOf(await client.callTool({ name: 'createDealActivity', arguments: { id: theirs.id, source_app: 'agent', message: 'hi' } }));
      assert.equal(write.error, 'deal_not_found');
      const activities = await served.rest('GET', `/api/v1/deals/${theirs.id}/activities`, other.key);
      assert.equal(activities.body.data.length, 0);
    });

    test('the key rate limit is shared by REST and tool calls; initialize and tools/list do not count', async () => {
      const { secret } = await a.keyWith(['read'], 4);
      const limited = await httpClient(served.url, secret);
      try {
        for (let i = 0; i < 3; i++) await limited.listTools();
        assert.equal((await served.rest('GET', '/api/v1/deals', secret)).status, 200);
        assert.equal((await limited.callTool({ name: 'listDeals', arguments: {} })).isError, undefined);
        assert.equal((await served.rest('GET', '/api/v1/orgs', secret)).status, 200);
        assert.equal((await limited.callTool({ name: 'listOrgs', arguments: {} })).isError, undefined);
        const refused = errorOf(await limited.callTool({ name: 'listDeals', arguments: {} }));
        assert.equal(refused.error, 'rate_limited');
        assert.equal(refused.status, 429);
        assert.equal((await served.rest('GET', '/api/v1/deals', secret)).status, 429);
        assert.equal((await limited.listTools()).tools.length > 0, true, 'tools/list still answers');
      } finally {
        await limited.close();
      }
    });

    test('over stdio: an unknown tool is -32602 through the relay; API errors arrive as tool results', async () => {
      const stdio = await stdioClient(served.url, a.key);
      try {
        await rejectsWith(stdio.callTool({ name: 'dropDatabase', arguments: {} }), -32602, /Unknown tool/);
        const error = errorOf(await stdio.callTool({ name: 'getDeal', arguments: { id: 999999 } }));
        assert.equal(error.error, 'deal_not_found');
      } finally {
        await stdio.close();
      }
    });

    test('custops mcp: no CUSTOPS_API_KEY is one line on stderr and exit 2; a refused key is one line and exit 1', async () => {
      const run = (env: Record<string, string>) =>
        new Promise<{ code: number | null; stderr: string; stdout: string }>((resolve) => {
          const proc = spawn(process.execPath, [join(ROOT, 'bin', 'custops.js'), 'mcp', '--url', served.url], {
            env: { PATH: process.env.PATH ?? '', HOME: '/tmp', ...env },
            stdio: ['pipe', 'pipe', 'pipe'],
          });
          let stderr = '';
          let stdout = '';
          proc.stderr.on('data', (c) => (stderr += c));
          proc.stdout.on('data', (c) => (stdout += c));
          proc.on('exit', (code) => resolve({ code, stderr, stdout }));
        });
      const missing = await run({});
      assert.equal(missing.code, 2);
      assert.equal(missing.stderr.trim().split('\n').length, 1);
      assert.match(missing.stderr, /CUSTOPS_API_KEY/);
      assert.equal(missing.stdout, '');
      const refused = await run({ CUSTOPS_API_KEY: 'cok_wrong' });
      assert.equal(refused.code, 1);
      assert.equal(refused.stderr.trim().split('\n').length, 1);
      assert.match(refused.stderr, /401/);
      assert.equal(refused.stdout, '');
    });
  });
});
