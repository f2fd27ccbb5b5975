import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyStandardWebhook, verifyWebhookSignature } from '../../src/webhooks.ts';
import { engines } from '../helpers/engines.ts';
import { call, createHarness, createTestAccount, type Harness } from '../helpers/harness.ts';
import { tableCounts } from '../helpers/counts.ts';
import { assertError } from '../helpers/route-checks.ts';
import { Dispatcher } from '../../src/modules/webhooks/dispatcher.ts';
import { plainReceiver } from './helpers/receiver.ts';

for (const engine of engines()) {
  describe(`plain http:// to loopback in development mode [${engine}]`, () => {
    let dev: Harness;
    let prod: Harness;
    let receiver: Awaited<ReturnType<typeof plainReceiver>>;
    before(async () => {
      dev = await createHarness(engine, { env: { CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1' } });
      prod = await createHarness(engine);
      receiver = await plainReceiver();
    });
    after(async () => {
      receiver.server.close();
      await dev.close();
      await prod.close();
    });

    test('with CUSTOPS_WEBHOOK_ALLOW_PRIVATE=1, http://127.0.0.1 and http://localhost are accepted and receive signed deliveries', async () => {
      const a = await createTestAccount(dev);
      const urls = [`http://127.0.0.1:${receiver.port}/a`, `http://localhost:${receiver.port}/b`];
      const secrets = [];
      for (const url of urls) {
        const res = await call(dev, 'POST', '/api/v1/webhooks/endpoints', { key: a.key, body: { name: 'local', url, event_types: ['deal.created'] } });
        assert.equal(res.statusCode, 201, res.body);
        secrets.push(res.json().secret as string);
      }
      const org = (await call(dev, 'POST', '/api/v1/orgs', { key: a.key, body: { name: 'Local' } })).json();
      assert.equal((await call(dev, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org.id, title: 'Over plain HTTP' } })).statusCode, 201);
      const dispatcher = new Dispatcher({ database: dev.database.handle, config: dev.config });
      await dispatcher.drain();
      await dispatcher.stop();
      assert.equal(receiver.got.length, 2);
      for (const r of receiver.got) {
        assert.ok(
          secrets.some(
            (s) =>
              verifyWebhookSignature(r.raw, r.headers as Record<string, string>, s) && verifyStandardWebhook(r.raw, r.headers as Record<string, string>, s),
          ),
        );
      }
      const statuses = await dev.db.selectFrom('webhook_deliveries').select('status').where('account_id', '=', a.accountId).execute();
      assert.deepEqual(
        statuses.map((s) => s.status),
        ['sent', 'sent'],
      );
    });

    test('even in development mode, plain http to anything but loopback is 422, and nothing is written', async () => {
      const a = await createTestAccount(dev);
      for (const url of ['http://example.com/h', 'http://10.0.0.7/h', 'http://192.168.1.2:3000/h']) {
        const before = await tableCounts(dev.db);
        const res = await call(dev, 'POST', '/api/v1/webhooks/endpoints', { key: a.key, body: { name: 'x', url, event_types: ['deal.won'] } });
        assertError(res, 422, 'validation_error');
        assert.equal(res.json().fields.url, 'not_allowed', url);
        assert.deepEqual(await tableCounts(dev.db), before);
      }
    });

    test('without it, http://127.0.0.1 is refused', async () => {
      const a = await createTestAccount(prod);
      const res = await call(prod, 'POST', '/api/v1/webhooks/endpoints', {
        key: a.key,
        body: { name: 'x', url: `http://127.0.0.1:${receiver.port}/`, event_types: ['deal.won'] },
      });
      assertError(res, 422, 'validation_error');
      assert.match(res.json().message, /must use https/);
    });
  });
}
