import assert from 'node:assert/strict';
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { engines } from '../helpers/engines.ts';
import { call, createTestAccount } from '../helpers/harness.ts';
import { createEndpoint, webhookEnv, type WebhookEnv } from '../webhooks/helpers/setup.ts';

/**
 * The package as an integrator gets it: the package's prepack script builds dist/ from the
 * TypeScript, `npm pack` packs it, the tarball is installed into a throwaway project from the npm
 * cache, and both entry points are imported on the system Node (20 on the development machine) and
 * on the project's Node 24, verifying a real signed delivery and reading it back through the typed
 * client.
 */

const root = process.cwd();

/** NODE20, or the first `node` on PATH outside node_modules: the system Node, not the project's pinned one. */
function systemNode(): string {
  if (process.env.NODE20) return process.env.NODE20;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir.includes('node_modules') || !dir) continue;
    const candidate = join(dir, 'node');
    const r = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
    if (r.status === 0) return candidate;
  }
  throw new Error('no system node on PATH');
}

const CHECK = `
import { readFileSync } from 'node:fs';
import { verifyWebhookSignature, verifyStandardWebhook, EVENT_TYPES } from 'custops/webhooks';
import * as root from 'custops';
import { createCustopsClient } from 'custops/client';
const input = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const raw = Buffer.from(input.raw, 'base64');
const api = createCustopsClient({ baseUrl: input.baseUrl, apiKey: input.key });
const { data, error } = await api.GET('/api/v1/webhooks/deliveries/{id}', { params: { path: { id: input.deliveryId } } });
const tampered = Buffer.concat([raw, Buffer.from(' ')]);
console.log(JSON.stringify({
  node: process.version,
  service: verifyWebhookSignature(raw, input.headers, input.secret),
  standard: verifyStandardWebhook(raw, input.headers, input.secret),
  rootExport: root.verifyWebhookSignature === verifyWebhookSignature,
  tamperedService: verifyWebhookSignature(tampered, input.headers, input.secret),
  tamperedStandard: verifyStandardWebhook(tampered, input.headers, input.secret),
  wrongSecret: verifyWebhookSignature(raw, input.headers, 'whsec_' + Buffer.alloc(32).toString('base64')),
  eventTypes: EVENT_TYPES.length,
  delivery: data ?? null,
  error: error ?? null,
}));
`;

// Types, as an integrator's TypeScript sees them: the payload union narrows on event_type, and the
// client's answers are typed from the OpenAPI document.
const CONSUMER_TS = `
import { verifyWebhookSignature, type WebhookEvent } from 'custops/webhooks';
import { createCustopsClient } from 'custops/client';
export function dealTitle(raw: Buffer, headers: Record<string, string>, secret: string): string | null {
  if (!verifyWebhookSignature(raw, headers, secret)) return null;
  const event = JSON.parse(raw.toString('utf8')) as WebhookEvent;
  if (event.event_type === 'deal.won') return event.deal.title;
  if (event.event_type === 'support.log.created') return event.support_log.note;
  return null;
}
export async function firstDealStatus(): Promise<string | undefined> {
  const api = createCustopsClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'cok_x' });
  const { data } = await api.GET('/api/v1/deals', { params: { query: { per_page: 1 } } });
  return data?.data[0]?.status;
}
`;

describe('the npm package', () => {
  let project: string;
  before(() => {
    const work = mkdtempSync(join(tmpdir(), 'custops-pack-'));
    // prepack is what `npm pack` runs to build dist/; run here, and `npm pack` told to run no
    // script, because `npm pack` also runs `prepare`, which builds the console (not in the package,
    // and already built by pretest) and dist/ a second time.
    execFileSync('npm', ['run', '-s', 'prepack'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 300_000,
      }),
    );
    const files = (packed[0].files as { path: string }[]).map((f) => f.path);
    assert.ok(files.includes('dist/webhooks.js') && files.includes('dist/webhooks.d.ts'), 'the tarball holds compiled JavaScript and declarations');
    assert.ok(!files.some((f) => f.startsWith('src/') || f.startsWith('test/')), 'no sources or tests in the tarball');
    project = join(work, 'consumer');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
    // Offline from the npm cache where possible; only the npm registry is reachable otherwise.
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev', '--ignore-scripts', join(work, packed[0].filename)], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 300_000,
    });
    writeFileSync(join(project, 'check.mjs'), CHECK);
    writeFileSync(join(project, 'consumer.ts'), CONSUMER_TS);
    // And a wrong use, which must fail to compile, so that the check of consumer.ts means something.
    writeFileSync(join(project, 'wrong.ts'), CONSUMER_TS.replace('event.deal.title', 'event.support_log.note'));
    for (const file of ['consumer.ts', 'wrong.ts']) {
      writeFileSync(
        join(project, `tsconfig.${file.replace('.ts', '')}.json`),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            noEmit: true,
            types: ['node'],
            typeRoots: [join(root, 'node_modules', '@types')],
          },
          files: [file],
        }),
      );
    }
  });

  test("its declarations type an integrator's code: payloads narrow on event_type, client answers are typed", async () => {
    // Both compilations at once (they share nothing but the installed package).
    const tsc = (config: string) =>
      promisify(execFile)(join(root, 'node_modules', '.bin', 'tsc'), ['-p', config], { cwd: project, encoding: 'utf8', timeout: 120_000 }).then(
        () => ({ status: 0, output: '' }),
        (err: { code?: number; stdout?: string; stderr?: string }) => ({ status: err.code ?? 1, output: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
      );
    const [good, bad] = await Promise.all([tsc('tsconfig.consumer.json'), tsc('tsconfig.wrong.json')]);
    assert.equal(good.status, 0, good.output);
    assert.notEqual(bad.status, 0, 'support_log does not exist on a deal.won event');
    assert.match(bad.output, /support_log/, 'the wrong use is what fails to compile');
  });

  for (const engine of engines()) {
    describe(`a real delivery verified with the installed package [${engine}]`, () => {
      let env: WebhookEnv;
      before(async () => {
        env = await webhookEnv(engine);
      });
      after(() => env.close());

      test('on the system Node and on Node 24', async () => {
        const { h, receiver } = env;
        const a = await createTestAccount(h);
        const ep = await createEndpoint(h, a, receiver.url('/pack'), ['deal.created']);
        const org = (await call(h, 'POST', '/api/v1/orgs', { key: a.key, body: { name: 'Packed' } })).json();
        const deal = await call(h, 'POST', '/api/v1/deals', { key: a.key, body: { org_id: org.id, title: 'Installed from a tarball' } });
        assert.equal(deal.statusCode, 201);
        await env.dispatcher().drain();
        const got = receiver.received.find((r) => r.path === '/pack');
        assert.ok(got, 'the delivery arrived');
        const address = await h.app.listen({ port: 0, host: '127.0.0.1' });
        const input = join(project, `input-${engine}.json`);
        writeFileSync(
          input,
          JSON.stringify({
            raw: got.raw.toString('base64'),
            headers: got.headers,
            secret: ep.secret,
            baseUrl: address,
            key: a.key,
            deliveryId: Number(got.headers['x-service-delivery']),
          }),
        );
        const versions = new Set<string>();
        for (const node of [systemNode(), process.execPath]) {
          // Asynchronously: the server answering the child's client runs in this process.
          const r = await promisify(execFile)(node, ['check.mjs', input], { cwd: project, encoding: 'utf8', timeout: 120_000 });
          const out = JSON.parse(r.stdout);
          versions.add(out.node);
          assert.equal(out.service, true, `${out.node}: X-Service-Signature verifies`);
          assert.equal(out.standard, true, `${out.node}: webhook-signature verifies`);
          assert.equal(out.rootExport, true);
          assert.equal(out.tamperedService, false);
          assert.equal(out.tamperedStandard, false);
          assert.equal(out.wrongSecret, false);
          assert.equal(out.eventTypes, 7);
          assert.equal(out.error, null, `${out.node}: ${JSON.stringify(out.error)}`);
          assert.equal(out.delivery.event_id, JSON.parse(got.raw.toString()).id, `${out.node}: the typed client reads the delivery back`);
          assert.equal(out.delivery.status, 'sent');
        }
        assert.ok(versions.has(process.version), 'ran on the project Node');
        assert.ok(
          [...versions].some((v) => v.startsWith('v20.')),
          `ran on Node 20 too: ${[...versions].join(', ')}`,
        );
      });
    });
  }
});
