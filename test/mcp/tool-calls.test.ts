import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/client';
import { verifyWebhookSignature } from '../../src/index.ts';
import { onEachEngineAtOnce } from '../helpers/engines.ts';
import { startReceiver, type Receiver } from '../webhooks/helpers/receiver.ts';
import { testPki } from '../webhooks/helpers/setup.ts';
import { httpClient, startServed, stdioClient, type Served, type ServedAccount } from './helpers.ts';

type ToolResult = Awaited<ReturnType<Client['callTool']>>;

function text(result: ToolResult): string {
  const content = result.content as { type: string; text: string }[];
  assert.equal(content.length, 1);
  assert.equal(content[0].type, 'text');
  return content[0].text;
}

/** Arguments beyond the path parameters, where an operation needs them to answer 200. */
const EXTRA_ARGS: Record<string, Record<string, unknown>> = {
  searchDeals: { payment_customer_id: 'cus_mcp' },
  listDeals: { status: 'new', per_page: 1, sort: 'title' },
};

onEachEngineAtOnce('MCP tool calls, each engine at once', (engine) => {
  describe(`MCP tool calls [${engine}]`, () => {
    let served: Served;
    let a: ServedAccount;
    let receiver: Receiver;
    let endpoint: { id: number; secret: string };
    let deal: { id: number };
    let http: Client;
    let stdio: Client;

    before(async () => {
      receiver = await startReceiver(testPki());
      served = await startServed(engine, { NODE_EXTRA_CA_CERTS: testPki().caFile, CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1' });
      a = await served.account();
      const post = async (path: string, body: unknown) => {
        const res = await served.rest('POST', `/api/v1${path}`, a.key, body);
        assert.ok(res.status === 201 || res.status === 200, `${path}: ${JSON.stringify(res.body)}`);
        return res.body as { id: number; secret: string };
      };
      // One record of every kind, so every read operation has something to read.
      endpoint = await post('/webhooks/endpoints', { name: 'agent hook', url: receiver.url('/hook'), event_types: ['deal.activity.created'] });
      const org = await post('/orgs', { name: 'Acme MCP' });
      await post('/users', { email: `rep-${Date.now()}@example.com`, display_name: 'Rep' });
      const contact = await post('/contacts', { org_id: org.id, name: 'Pat', email: 'pat@example.com' });
      const audience = await post('/marketing-audiences', { name: 'Newsletter' });
      const put = await served.rest('PUT', `/api/v1/contacts/${contact.id}/marketing-audiences`, a.key, { audience_ids: [audience.id] });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      deal = await post('/deals', { org_id: org.id, title: 'Renewal', contact_id: contact.id, payment_customer_id: 'cus_mcp' });
      const ticket = await post('/support/tickets', {
        source_app: 'app',
        external_org_id: 'ext-1',
        org_name: 'Acme MCP',
        title: 'Login',
        details: 'Cannot log in',
        contact_email: 'pat@example.com',
      });
      await post(`/support/tickets/${ticket.id}/logs`, { note: 'Reset the password' });
      http = await httpClient(served.url, a.key);
      stdio = await stdioClient(served.url, a.key);
    });
    after(async () => {
      await http?.close();
      await stdio?.close();
      await served?.close();
      await receiver?.close();
    });

    test('a write tool logs an activity that REST shows and the HTTPS receiver gets as deal.activity.created', async () => {
      const result = await http.callTool({ name: 'createDealActivity', arguments: { id: deal.id, source_app: 'agent', message: 'Called the customer' } });
      assert.equal(result.isError, undefined, text(result));
      const activity = result.structuredContent as { id: number; message: string };
      assert.equal(activity.message, 'Called the customer');
      assert.deepEqual(JSON.parse(text(result)), activity);
      assert.equal((result._meta as Record<string, unknown>)['custops/status'], 201);

      const rest = await served.rest('GET', `/api/v1/deals/${deal.id}/activities/${activity.id}`, a.key);
      assert.equal(rest.status, 200);
      assert.deepEqual(rest.body, activity);

      await receiver.waitFor((r) => r.some((x) => x.path === '/hook'));
      const delivery = receiver.received.find((x) => x.path === '/hook')!;
      assert.ok(verifyWebhookSignature(delivery.raw, delivery.headers as Record<string, string>, endpoint.secret));
      const event = JSON.parse(delivery.raw.toString('utf8'));
      assert.equal(event.event_type, 'deal.activity.created');
      assert.equal(event.deal_id, deal.id);
      assert.equal(event.activity.id, activity.id);
    });

    test('a write over stdio lands like one over REST', async () => {
      const result = await stdio.callTool({ name: 'updateDeal', arguments: { id: deal.id, next_followup_at: '2027-01-15' } });
      assert.equal(result.isError, undefined, text(result));
      const rest = await served.rest('GET', `/api/v1/deals/${deal.id}`, a.key);
      assert.deepEqual(result.structuredContent, rest.body);
      assert.match(rest.body.next_followup_at, /^2027-01-15/);
    });

    test('the same idempotency_key replays the first result, across tool calls and REST alike', async () => {
      const args = { id: deal.id, source_app: 'agent', message: 'Sent the proposal', idempotency_key: `mcp-${engine}-1` };
      const first = await http.callTool({ name: 'createDealActivity', arguments: args });
      const again = await stdio.callTool({ name: 'createDealActivity', arguments: args });
      assert.deepEqual(again.structuredContent, first.structuredContent);
      assert.equal((again._meta as Record<string, unknown>)['custops/idempotent_replayed'], true);
      const { idempotency_key, id, ...body } = args;
      const rest = await served.rest('POST', `/api/v1/deals/${id}/activities`, a.key, body, { 'Idempotency-Key': idempotency_key });
      assert.equal(rest.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(rest.body, first.structuredContent);
      const list = await served.rest('GET', `/api/v1/deals/${deal.id}/activities?per_page=100`, a.key);
      assert.equal(list.body.data.filter((x: { message: string }) => x.message === 'Sent the proposal').length, 1);
      const changed = await http.callTool({ name: 'createDealActivity', arguments: { ...args, message: 'Something else' } });
      assert.equal(changed.isError, true);
      assert.equal(JSON.parse(text(changed)).error, 'idempotency_key_reused');
    });

    test('every GET tool answers what REST answers for the same arguments, over HTTP and stdio', async () => {
      await receiver.waitFor((r) => r.filter((x) => x.path === '/hook').length >= 2);
      const { tools } = await http.listTools();
      const doc = (await (await fetch(`${served.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string }>> };
      const paths = new Map<string, string>();
      for (const [path, item] of Object.entries(doc.paths)) if (item.get) paths.set(item.get.operationId, path);
      const reads = tools.filter((t) => t.annotations?.readOnlyHint);
      assert.ok(reads.length >= 25, `${reads.length} read tools`);
      for (const tool of reads) {
        const template = paths.get(tool.name)!;
        // Each path parameter takes the first id of the collection before it, read over REST.
        const args: Record<string, unknown> = {};
        let path = template;
        for (const match of template.matchAll(/\{(\w+)\}/g)) {
          const collection = path.slice(0, path.indexOf(match[0]) - 1);
          const list = await served.rest('GET', collection, a.key);
          assert.ok(list.body?.data?.length, `${tool.name}: nothing in ${collection} to read: ${JSON.stringify(list.body)}`);
          args[match[1]] = list.body.data[0].id;
          path = path.replace(match[0], String(args[match[1]]));
        }
        Object.assign(args, EXTRA_ARGS[tool.name] ?? {});
        const query = new URLSearchParams(Object.entries(EXTRA_ARGS[tool.name] ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
        const rest = await served.rest('GET', query.size ? `${path}?${query}` : path, a.key);
        assert.equal(rest.status, 200, `${tool.name}: ${JSON.stringify(rest.body)}`);
        for (const [name, client] of [
          ['http', http],
          ['stdio', stdio],
        ] as const) {
          const result = await client.callTool({ name: tool.name, arguments: args });
          assert.equal(result.isError, undefined, `${name} ${tool.name}: ${text(result)}`);
          assert.deepEqual(result.structuredContent, rest.body, `${name} ${tool.name}`);
          assert.deepEqual(JSON.parse(text(result)), rest.body, `${name} ${tool.name} text`);
        }
      }
    });
  });
});
