import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { WEB_DIST } from '../../src/modules/console/console.static.ts';
import { call, createHarness, type Harness } from '../helpers/harness.ts';

describe('the console is served at / with security headers', () => {
  let h: Harness;
  before(async () => {
    h = await createHarness('sqlite');
  });
  after(() => h.close());

  const html = { accept: 'text/html,application/xhtml+xml' };

  function assertConsolePage(res: Awaited<ReturnType<typeof call>>) {
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'), csp);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /object-src 'none'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['referrer-policy'], 'same-origin');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.match(res.body, /<div id="root"><\/div>/);
    assert.ok(!/<script>(?!<\/script>)/.test(res.body), 'no inline script');
  }

  test('/ and deep links (for browsers) answer the app page; the API keeps its JSON 404', async () => {
    assertConsolePage(await call(h, 'GET', '/'));
    assertConsolePage(await call(h, 'GET', '/webhooks/deliveries/12?status=failed', { headers: html }));
    assertConsolePage(await call(h, 'GET', '/sign-in', { headers: html }));
    const api = await call(h, 'GET', '/api/v1/nope', { headers: html });
    assert.equal(api.statusCode, 404);
    assert.equal(api.json().error, 'not_found');
    const curl = await call(h, 'GET', '/webhooks');
    assert.equal(curl.statusCode, 404, 'a client that does not ask for HTML gets the JSON 404');
    assert.equal((await call(h, 'GET', '/docs/nope', { headers: html })).statusCode, 404);
    assert.equal((await call(h, 'POST', '/webhooks', { headers: html })).statusCode, 404);
  });

  test('hashed assets are served with a long cache; a missing asset is 404', async () => {
    const index = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1];
    const res = await call(h, 'GET', asset);
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /javascript/);
    assert.match(String(res.headers['cache-control']), /immutable/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const missing = await call(h, 'GET', '/assets/nope-123.js', { headers: html });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().error, 'not_found');
  });
});
