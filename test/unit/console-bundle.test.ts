import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { WEB_DIST } from '../../src/modules/console/console.static.ts';

const BUDGET = 200 * 1024;

test('the console first load (JS and CSS the page names) is at most 200 KB gzipped; pages load lazily', () => {
  const indexFile = join(WEB_DIST, 'index.html');
  assert.ok(existsSync(indexFile), 'web/dist is built (npm ci and npm test build it)');
  const html = readFileSync(indexFile, 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  assert.ok(files.some((f) => f.endsWith('.js')) && files.some((f) => f.endsWith('.css')));
  const sizes = files.map((f) => gzipSync(readFileSync(join(WEB_DIST, 'assets', f))).length);
  const total = sizes.reduce((a, b) => a + b, 0);
  assert.ok(total <= BUDGET, `first load is ${Math.round(total / 1024)} KB gzipped (budget 200 KB): ${files.join(', ')}`);
  // Feature pages are separate chunks, fetched when visited.
  const main = readFileSync(join(WEB_DIST, 'assets', files.find((f) => f.startsWith('index-') && f.endsWith('.js'))!), 'utf8');
  for (const page of ['endpoints-page', 'api-keys-page', 'team-page', 'delivery-page'])
    assert.match(main, new RegExp(`assets/${page}-[\\w-]+\\.js`), `${page} is a lazy chunk`);
});
