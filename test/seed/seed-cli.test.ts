import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../src/cli/main.ts';
import { tableCounts } from '../helpers/counts.ts';
import { createTestDatabase, engines, type TestDatabase } from '../helpers/engines.ts';

const NODE = 'node_modules/.bin/node';

for (const engine of engines()) {
  describe(`custops seed, bad input [${engine}]`, () => {
    let t: TestDatabase;
    let dir: string;
    let accountId: number;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'custops-seed-cli-'));
      t = await createTestDatabase(engine, { sqlitePath: join(dir, 'seed.db') });
      const r = await t.handle.db.insertInto('accounts').values({ name: 'Seed target', created_at: Date.now() }).returning('id').executeTakeFirstOrThrow();
      accountId = Number(r.id);
    });
    after(async () => {
      await t.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    const cases: [string, (id: number) => string[], RegExp][] = [
      ['an unknown account', () => ['--account', '999999', '--deals', '10'], /account 999999 does not exist/],
      ['zero deals', (id) => ['--account', String(id), '--deals', '0'], /--deals must be a whole number/],
      ['a fraction', (id) => ['--account', String(id), '--deals', '1.5'], /--deals must be a whole number/],
      ['no --account', () => ['--deals', '10'], /--account is required/],
      ['a bad --seed', (id) => ['--account', String(id), '--deals', '10', '--seed', 'x'], /--seed must be a whole number/],
    ];
    for (const [name, args, message] of cases) {
      test(`${name}: one line on stderr, exit 2, nothing written`, async () => {
        const before = await tableCounts(t.handle.db);
        // In process through main() (the command's logic, output and exit code), as the CLI suite runs commands.
        let stdout = '';
        let stderr = '';
        const status = await main(
          ['seed', ...args(accountId)],
          { ...process.env, DATABASE_URL: t.url, CUSTOPS_DATA_DIR: dir, LOG_LEVEL: 'silent' },
          {
            out: (l) => (stdout += l + '\n'),
            err: (l) => (stderr += l + '\n'),
          },
        );
        const run = { status, stdout, stderr };
        assert.equal(run.status, 2, run.stderr);
        assert.equal(run.stdout, '');
        const lines = run.stderr.split('\n').filter((l) => l !== '');
        assert.equal(lines.length, 1, run.stderr);
        assert.match(lines[0], message);
        assert.deepEqual(await tableCounts(t.handle.db), before);
      });
    }

    test('a good run (a real process) prints one JSON line of counts', async () => {
      const run = spawnSync(NODE, ['bin/custops.js', 'seed', '--account', String(accountId), '--deals', '50', '--seed', '4'], {
        env: { ...process.env, DATABASE_URL: t.url, CUSTOPS_DATA_DIR: dir, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
      assert.equal(run.status, 0, run.stderr);
      const lines = run.stdout.split('\n').filter((l) => l !== '');
      assert.equal(lines.length, 1);
      const out = JSON.parse(lines[0]);
      assert.equal(out.account_id, accountId);
      assert.equal(out.deals, 50);
      assert.match(run.stderr, /50 \/ 50 deals/);
      const deals = await t.handle.db
        .selectFrom('deals')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(deals.n), 50);
    });
  });
}
