import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { findNul } from '../../src/http/text-guard.ts';
import { decryptSecret, encryptSecret } from '../../src/lib/crypto.ts';
import { deeperThan, tooDeepField } from '../../src/lib/metadata.ts';
import { Random } from '../../src/demo/random.ts';
import { requestFingerprint } from '../../src/modules/idempotency/idempotency.plugin.ts';

// The steps every idempotent replay runs (docs/design.md#the-write-path), written for speed: each is
// checked here against the plain form it replaces, on the same inputs.

/** The fingerprint as it was first written: stored request hashes were computed this way. */
function referenceCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(referenceCanonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k, v]) => k !== 'idempotency_key' && v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${referenceCanonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
const referenceFingerprint = (method: string, path: string, body: unknown) =>
  createHash('sha256')
    .update(`${method} ${path}\n${referenceCanonical(body ?? null)}`)
    .digest('hex');

/**
 * The path of the first NUL, found another way: every key and string of the value with its path, in
 * document order (an object's key before its value), and the first that holds a NUL.
 */
function* textsOf(value: unknown, path: string): Generator<[path: string, text: string]> {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* textsOf(value[i], `${path}.${i}`);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const here = path ? `${path}.${k}` : k;
      yield [here, k];
      yield* textsOf(v, here);
    }
  }
}
function referenceFindNul(value: unknown, path: string): string | null {
  for (const [where, text] of textsOf(value, path)) if (text.includes('\u0000')) return where;
  return null;
}

function referenceTooDeepField(body: unknown, limit: number): string | null {
  if (body === null || typeof body !== 'object') return null;
  if (Array.isArray(body)) return deeperThan(body, limit) ? 'body' : null;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (deeperThan(value, limit - 1)) return key;
  }
  return null;
}

const PIECES = [
  'a',
  'Z',
  'é',
  'ß',
  '😀',
  '\ud83d',
  '\ude00',
  '"',
  '\\',
  '\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  ' ',
  '/',
  '0',
  '_',
  'idempotency_key',
];
const KEYS = ['a', 'b', 'B', 'é', '10', '2', '-1', '01', '', 'idempotency_key', 'constructor', 'toJSON', 'a"b', 'a\\b', 'z\u0000', '😀', '\ud800'];
const NUMBERS = [0, -0, 1, -1, 0.1, 1e21, 1e-7, 123456789.125, Number.MAX_SAFE_INTEGER, -2.5e-300, 310];

function text(rnd: Random): string {
  let s = '';
  const n = rnd.int(0, 6);
  for (let i = 0; i < n; i++) s += rnd.pick(PIECES);
  return s;
}

/** Values JSON.parse can return, and (for the fingerprint) undefined members a service might leave. */
function value(rnd: Random, depth: number): unknown {
  const kind = depth > 5 ? rnd.int(0, 4) : rnd.int(0, 7);
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rnd.chance(0.5);
    case 2:
      return rnd.pick(NUMBERS);
    case 3:
    case 4:
      return text(rnd);
    case 5:
      return Array.from({ length: rnd.int(0, 4) }, () => value(rnd, depth + 1));
    default: {
      const o: Record<string, unknown> = {};
      for (let i = rnd.int(0, 5); i > 0; i--) o[rnd.chance(0.5) ? rnd.pick(KEYS) : text(rnd)] = rnd.chance(0.1) ? undefined : value(rnd, depth + 1);
      return o;
    }
  }
}

describe('replay path: the fast forms give what the plain forms give', () => {
  test('the request fingerprint is the one stored hashes were made with: same bytes for 5,000 bodies, key order and idempotency_key ignored', () => {
    const rnd = new Random(20261127);
    for (let i = 0; i < 5000; i++) {
      const body = value(rnd, 0);
      assert.equal(
        requestFingerprint('POST', '/api/v1/deals/7/activities', body),
        referenceFingerprint('POST', '/api/v1/deals/7/activities', body),
        JSON.stringify(body),
      );
      // What the route decoded from JSON text, too.
      const decoded = JSON.parse(JSON.stringify(body) ?? 'null');
      assert.equal(requestFingerprint('PATCH', '/api/v1/orgs/1', decoded), referenceFingerprint('PATCH', '/api/v1/orgs/1', decoded));
    }
    const body = { source_app: 'bench', message: 'Called', metadata_json: { tags: ['renewal'], duration_s: 310 } };
    const reordered = { metadata_json: { duration_s: 310, tags: ['renewal'] }, idempotency_key: 'k-1', message: 'Called', source_app: 'bench' };
    assert.equal(requestFingerprint('POST', '/p', body), requestFingerprint('POST', '/p', reordered));
    assert.notEqual(requestFingerprint('POST', '/p', body), requestFingerprint('POST', '/p', { ...body, message: 'Called!' }));
    assert.equal(requestFingerprint('POST', '/p', undefined), referenceFingerprint('POST', '/p', null));
    // A hole is written as nothing, as the first form's join wrote it (decoded JSON never has one).
    const holed: unknown[] = [1];
    holed[2] = 3;
    assert.equal(requestFingerprint('POST', '/p', holed), referenceFingerprint('POST', '/p', holed));
    assert.notEqual(requestFingerprint('POST', '/p', holed), requestFingerprint('POST', '/p', [1, undefined, 3]));
  });

  test('the text guard names the same field as a path-building walk, and null when no text holds NUL', () => {
    const rnd = new Random(7);
    let found = 0;
    for (let i = 0; i < 5000; i++) {
      const body = value(rnd, 0);
      const expected = referenceFindNul(body, '');
      if (expected) found++;
      assert.equal(findNul(body, ''), expected, JSON.stringify(body));
      assert.equal(findNul({ q: body }, 'query'), referenceFindNul({ q: body }, 'query'));
    }
    assert.ok(found > 100, `${found} of the bodies hold a NUL`);
    // The first form's quirk is kept: a NUL under the empty top-level key is passed over when another field follows.
    assert.equal(findNul({ '': 'a\u0000', b: 'c' }, ''), referenceFindNul({ '': 'a\u0000', b: 'c' }, ''));
  });

  test('the depth check names the same field as one walk per field', () => {
    const nest = (levels: number): unknown => (levels === 0 ? 1 : rnd.chance(0.5) ? [nest(levels - 1)] : { x: nest(levels - 1) });
    const rnd = new Random(11);
    for (let i = 0; i < 2000; i++) {
      const body = rnd.chance(0.2) ? [nest(rnd.int(0, 6))] : { a: nest(rnd.int(0, 6)), b: value(rnd, 0), c: nest(rnd.int(0, 6)) };
      for (const limit of [1, 2, 3, 4, 5, 8])
        assert.equal(tooDeepField(body, limit), referenceTooDeepField(body, limit), `${JSON.stringify(body)} at ${limit}`);
    }
    for (const plain of [null, 1, 'x', true]) assert.equal(tooDeepField(plain, 1), null);
  });

  test('a stored answer decrypts to its exact text (several blocks, multi-byte, empty); an altered text, tag or IV is refused', () => {
    const key = randomBytes(32);
    const texts = ['', '{}', 'é', '😀'.repeat(40), JSON.stringify({ secret: 'whsec_abc', note: 'x'.repeat(1000) }), 'z'.repeat(65_537)];
    for (const t of texts) {
      const sealed = encryptSecret(key, t);
      assert.equal(decryptSecret(key, sealed), t);
      assert.equal(decryptSecret(Buffer.from(key), sealed), t, 'another Buffer holding the same key');
    }
    const sealed = encryptSecret(key, 'a stored response body');
    for (const at of [0, 11, 12, 27, 28, 40]) {
      const raw = Buffer.from(sealed, 'base64');
      raw[at] ^= 1;
      assert.throws(() => decryptSecret(key, raw.toString('base64')), Error, `byte ${at} altered`);
    }
  });
});
