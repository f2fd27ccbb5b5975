import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';
import { readBearer, signatureMatches } from '../../src/http/auth.ts';
import { decryptSecret, encryptSecret, hashPassword, needsRehash, safeEqual, unmatchablePasswordHash, verifyPassword } from '../../src/lib/crypto.ts';

describe('request signature (X-Service-Signature)', () => {
  const secret = 'cok_example-secret';
  const body = Buffer.from('{"message":"héllo","n":1}');
  const good = createHmac('sha256', secret).update(body).digest('hex');

  test('lowercase hex HMAC-SHA256 of the raw bytes, keyed with the key secret, matches', () => {
    assert.equal(signatureMatches(secret, body, good), true);
  });

  test('a signature of re-serialized JSON (other bytes) does not match', () => {
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(body.toString())).replace(':1', ': 1'));
    assert.equal(signatureMatches(secret, reserialized, good), false);
  });

  test('wrong key, truncated, uppercase and empty signatures do not match', () => {
    assert.equal(signatureMatches('cok_other', body, good), false);
    assert.equal(signatureMatches(secret, body, good.slice(0, 63)), false);
    assert.equal(signatureMatches(secret, body, good.toUpperCase()), false);
    assert.equal(signatureMatches(secret, body, ''), false);
  });

  test('an empty body signs the empty string', () => {
    const empty = createHmac('sha256', secret).update('').digest('hex');
    assert.equal(signatureMatches(secret, undefined, empty), true);
  });

  test('safeEqual compares whole strings', () => {
    assert.equal(safeEqual('abc', 'abc'), true);
    assert.equal(safeEqual('abc', 'abd'), false);
    assert.equal(safeEqual('abc', 'abcd'), false);
  });
});

describe('bearer parsing', () => {
  test('accepts "Bearer <key>" in any case, refuses others', () => {
    assert.equal(readBearer('Bearer cok_x'), 'cok_x');
    assert.equal(readBearer('bearer   cok_x '), 'cok_x');
    assert.equal(readBearer('Basic abc'), null);
    assert.equal(readBearer('Bearer'), null);
    assert.equal(readBearer('Bearer a b'), null);
    assert.equal(readBearer(undefined), null);
  });
});

describe('secrets at rest and passwords', () => {
  test('AES-256-GCM round trip; tampering is detected', () => {
    const key = Buffer.alloc(32, 7);
    const sealed = encryptSecret(key, 'whsec_abc');
    assert.notEqual(sealed, encryptSecret(key, 'whsec_abc'), 'a fresh IV each time');
    assert.equal(decryptSecret(key, sealed), 'whsec_abc');
    const raw = Buffer.from(sealed, 'base64');
    raw[raw.length - 1] ^= 1;
    assert.throws(() => decryptSecret(key, raw.toString('base64')));
    assert.throws(() => decryptSecret(Buffer.alloc(32, 8), sealed));
  });

  test('scrypt password hashes verify the right password only', async () => {
    const stored = await hashPassword('correct horse');
    assert.match(stored, /^scrypt\$32768\$8\$1\$/, 'the default cost: N = 2^15, r = 8, p = 1');
    assert.equal(await verifyPassword('correct horse', stored), true);
    assert.equal(await verifyPassword('wrong horse', stored), false);
  });

  test('a hash keeps its own cost: one made at another CUSTOPS_PASSWORD_COST still verifies', async () => {
    const cheap = await hashPassword('correct horse', 10);
    const dear = await hashPassword('correct horse', 16);
    assert.match(cheap, /^scrypt\$1024\$8\$1\$/);
    assert.match(dear, /^scrypt\$65536\$8\$1\$/);
    for (const stored of [cheap, dear]) {
      assert.equal(await verifyPassword('correct horse', stored), true);
      assert.equal(await verifyPassword('wrong horse', stored), false);
    }
    assert.match(unmatchablePasswordHash(12), /^scrypt\$4096\$8\$1\$/);
    assert.equal(await verifyPassword('', unmatchablePasswordHash(10)), false);
    assert.equal(needsRehash(cheap, 10), false);
    assert.equal(needsRehash(cheap, 15), true);
    assert.equal(needsRehash(cheap), true, 'against the default cost');
  });

  test('a stored string cannot ask for more work than the largest cost: other parameters are refused unverified', async () => {
    const [, , , , salt, hash] = (await hashPassword('correct horse', 10)).split('$');
    for (const params of ['524288$8$1', '1024$16$1', '1024$8$2', '1000$8$1', '0$8$1']) {
      assert.equal(await verifyPassword('correct horse', `scrypt$${params}$${salt}$${hash}`), false, params);
      assert.equal(needsRehash(`scrypt$${params}$${salt}$${hash}`, 10), true, params);
    }
    assert.equal(await verifyPassword('correct horse', `bcrypt$1024$8$1$${salt}$${hash}`), false);
  });
});
