import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createHarness, type Harness } from '../helpers/harness.ts';

/** Writes `chunks` on a raw socket (one every `everyMs`); resolves with what came back and when the server closed it. */
function rawExchange(port: number, chunks: string[], everyMs = 0): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const started = Date.now();
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d) => (text += d));
    // A server that refuses a request mid-upload may reset the connection once it has answered.
    socket.on('error', (err) => (text ? undefined : reject(err)));
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    if (everyMs === 0) socket.write(chunks.join(''));
    else {
      let i = 0;
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(chunks[i++ % chunks.length]);
      }, everyMs);
    }
  });
}

/** The status and JSON body of a raw HTTP/1.1 response. */
function parse(text: string): { status: number; headers: string; body: any } {
  const [head, body] = text.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), headers: head.toLowerCase(), body: JSON.parse(body) };
}

function assertErrorModel(r: { status: number; headers: string; body: any }, status: number, code: string): void {
  assert.equal(r.status, status);
  assert.equal(r.body.error, code);
  assert.equal(typeof r.body.message, 'string');
  assert.match(r.body.request_id, /^req_[0-9a-f]+$/);
  assert.ok(r.headers.includes(`x-request-id: ${r.body.request_id}`), 'the X-Request-Id header carries the same id');
}

describe('hostile clients: time-outs and framework-level rejections in the error model', () => {
  let h: Harness;
  let port: number;
  before(async () => {
    // Default settings: the slow-header bound under test is the shipped one.
    h = await createHarness('sqlite');
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    port = (h.app.server.address() as { port: number }).port;
  });
  after(() => h.close());

  test('the defaults: head within 10 s, whole request within 30 s, idle keep-alive 72 s', () => {
    assert.equal(h.config.httpHeadersTimeoutMs, 10_000);
    assert.equal(h.app.server.headersTimeout, 10_000);
    assert.equal(h.app.server.requestTimeout, 30_000);
    assert.equal(h.app.server.keepAliveTimeout, 72_000);
  });

  test('slowloris (one header byte a second) is cut off within about 10 s with 408 request_timeout', async () => {
    const head = 'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(100);
    const r = await rawExchange(port, [...head], 1000);
    assert.ok(r.closedAfterMs >= 9_000 && r.closedAfterMs < 12_500, `closed after ${r.closedAfterMs} ms`);
    assertErrorModel(parse(r.text), 408, 'request_timeout');
  });

  test('a path that is not valid percent-encoding is 400 bad_request, on any route', async () => {
    for (const path of ['/%ff%fe', '/api/v1/orgs/%ff', '/api/v1/deals/%E0%A4%A']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      assert.equal(res.status, 400, path);
      const body = (await res.json()) as { error: string; request_id: string };
      assert.equal(body.error, 'bad_request');
      assert.equal(res.headers.get('x-request-id'), body.request_id);
    }
  });

  test('a path segment over 200 characters is 400 bad_request', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/orgs/${'1'.repeat(300)}`);
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'bad_request');
  });

  test('malformed HTTP (a header line without a colon, a bad chunk size, both Content-Length and chunked) is 400 bad_request and the connection closes', async () => {
    const cases = [
      'GET /healthz HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n',
      'POST /api/v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'POST /api/v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}',
    ];
    for (const c of cases) {
      const r = await rawExchange(port, [c]);
      assertErrorModel(parse(r.text), 400, 'bad_request');
      assert.ok(parse(r.text).headers.includes('connection: close'));
    }
  });

  test('headers over the size limit are 431 headers_too_large', async () => {
    const r = await rawExchange(port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(64 * 1024)}\r\n\r\n`]);
    assertErrorModel(parse(r.text), 431, 'headers_too_large');
  });
});
