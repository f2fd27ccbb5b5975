import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { systemClock } from '../../src/lib/clock.ts';
import { createAccount } from '../../src/modules/accounts/accounts.service.ts';
import { emitEvent } from '../../src/modules/events/outbox.ts';
import { verifyWebhookSignature } from '../../src/index.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';
import { custops, waitUntil } from './helpers/processes.ts';
import { startReceiver, type Receiver } from './helpers/receiver.ts';
import { SAMPLE_ENTITIES, testPki } from './helpers/setup.ts';
import { endpointRow } from './helpers/endpoint-row.ts';

for (const engine of engines()) {
  describe(`custops worker [${engine}]`, () => {
    let db: TestDatabase;
    let receiver: Receiver;
    before(async () => {
      db = await createTestDatabase(engine, { sqlitePath: join(mkdtempSync(join(tmpdir(), 'custops-worker-')), 'w.db') });
      receiver = await startReceiver(testPki());
    });
    after(async () => {
      await receiver.close();
      await db.drop();
    });

    test('delivers events written by another process, signed, and exits 0 on SIGTERM', async () => {
      const key = randomBytes(32);
      const secret = 'whsec_' + randomBytes(32).toString('base64');
      const { account } = await createAccount({ db: db.handle.db, clock: systemClock }, { name: 'Worker CLI' });
      await db.handle.db
        .insertInto('webhook_endpoints')
        .values(endpointRow({ accountId: account.id, name: 'w', url: receiver.url('/worker'), eventTypes: ['deal.won'], secretKey: key, secret }))
        .execute();
      const worker = custops(['worker'], {
        DATABASE_URL: db.url,
        CUSTOPS_SECRET_KEY: key.toString('base64'),
        NODE_EXTRA_CA_CERTS: testPki().caFile,
        CUSTOPS_WEBHOOK_ALLOW_PRIVATE: '1',
        LOG_LEVEL: 'info',
      });
      try {
        await waitUntil('worker started', () => worker.output().includes('custops worker started'), 20_000);
        for (let i = 0; i < 20; i++) {
          await db.handle.db
            .transaction()
            .execute((trx) => emitEvent(trx, { accountId: account.id, orgId: 1, type: 'deal.won', entity: SAMPLE_ENTITIES['deal.won'], now: Date.now() }));
        }
        await receiver.waitFor((r) => r.filter((x) => x.path === '/worker').length === 20, 15_000);
        for (const r of receiver.received) assert.ok(verifyWebhookSignature(r.raw, r.headers as Record<string, string>, secret));
        worker.proc.kill('SIGTERM');
        assert.equal((await worker.exited).code, 0, worker.output());
      } finally {
        if (worker.proc.exitCode === null) worker.proc.kill('SIGKILL');
      }
      const rows = await db.handle.db.selectFrom('webhook_deliveries').select('status').execute();
      assert.equal(rows.length, 20);
      assert.ok(rows.every((r) => r.status === 'sent'));
    });
  });
}
