import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ERROR_CATALOGUE } from '../../src/lib/errors.ts';
import type { Harness } from '../helpers/harness.ts';
import { operations, servedDocument } from '../helpers/openapi-doc.ts';

describe('OpenAPI document', () => {
  let h: Harness;
  let doc: any;
  before(async () => {
    ({ h, doc } = await servedDocument());
  });
  after(() => h.close());

  test('passes Redocly recommended lint without errors or warnings', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custops-openapi-'));
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    const redocly = join(process.cwd(), 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
    const r = spawnSync(process.execPath, [redocly, 'lint', '--extends=recommended', '--format=json', file], {
      encoding: 'utf8',
      cwd: dir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 120_000,
    });
    const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{')));
    const problems = report.problems.map((p: any) => `${p.severity} ${p.ruleId}: ${p.message} @ ${p.location?.[0]?.pointer}`);
    assert.deepEqual(problems, []);
    assert.equal(r.status, 0);
  });

  test('every operation has an operationId, summary, tags, security and typed 2xx and 4xx bodies', () => {
    const ids = new Set<string>();
    for (const { id, op } of operations(doc)) {
      assert.ok(op.operationId, `${id} operationId`);
      assert.ok(!ids.has(op.operationId), `${id} operationId unique`);
      ids.add(op.operationId);
      assert.ok(op.summary, `${id} summary`);
      assert.ok(op.tags?.length, `${id} tags`);
      assert.ok(Array.isArray(op.security), `${id} security`);
      const statuses = Object.keys(op.responses);
      const ok = statuses.find((s) => s.startsWith('2'));
      assert.ok(ok, `${id} has a 2xx`);
      assert.ok(
        statuses.some((s) => s.startsWith('4')),
        `${id} has a 4xx`,
      );
      // 204 No Content has no body to type; every other success does (JSON, or text for /metrics).
      if (ok !== '204') assert.ok(Object.values<any>(op.responses[ok!].content ?? {})[0]?.schema, `${id} 2xx body is typed`);
      if (op.tags.includes('console')) {
        // Console session routes take no key, so they have no scope: the session cookie (or nothing, to sign in).
        assert.ok(op.security.length === 0 || JSON.stringify(op.security) === '[{"sessionCookie":[]}]', `${id} session security`);
        assert.ok(op.responses['403'] && op.responses['401'], `${id} documents 401 and 403`);
      } else if (op.security.some((s: Record<string, unknown>) => 'bearerAuth' in s)) {
        // API-key operations (GET /metrics has its own token and no scope).
        assert.ok(op['x-required-scopes']?.length >= 1, `${id} names its scope`);
        for (const s of ['401', '403', '422', '429', '500']) assert.ok(op.responses[s], `${id} documents ${s}`);
      }
    }
  });

  test('every error code of the catalogue is documented', () => {
    const text = JSON.stringify(doc);
    for (const code of Object.keys(ERROR_CATALOGUE)) {
      const transport = [
        'not_found',
        'method_not_allowed',
        'payload_too_large',
        'unsupported_media_type',
        'service_unavailable',
        'bad_request',
        'request_timeout',
        'headers_too_large',
      ];
      if (transport.includes(code)) {
        // Transport-level codes any route may answer; documented in the API description.
        assert.ok(doc.info.description.includes(code), `${code} in info.description`);
        continue;
      }
      assert.ok(text.includes(`\`${code}\``), `${code} documented on some operation`);
    }
  });
});
