import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Type } from 'typebox';
import { showsCredential } from '../../src/http/credentials.ts';
import { createHarness } from '../helpers/harness.ts';

const none = () => undefined;

describe('answers that show a credential (http/credentials.ts)', () => {
  test('a property named secret, *_secret, token, *_token or password, at any depth, through $refs, arrays and unions', () => {
    const shared: Record<string, unknown> = { Key: Type.Object({ id: Type.Integer(), secret: Type.String() }) };
    const resolve = (id: string) => shared[id];
    assert.equal(showsCredential({ 201: Type.Object({ secret: Type.String() }) }, none), true);
    assert.equal(showsCredential({ 200: Type.Object({ session: Type.Object({ csrf_token: Type.String() }) }) }, none), true);
    assert.equal(showsCredential({ 200: Type.Object({ data: Type.Array(Type.Object({ signing_secret: Type.String() })) }) }, none), true);
    assert.equal(showsCredential({ 200: Type.Union([Type.Object({ id: Type.Integer() }), Type.Object({ password: Type.String() })]) }, none), true);
    assert.equal(showsCredential({ 201: { $ref: 'Key#' } }, resolve), true);
    assert.equal(showsCredential({ 200: Type.Object({ data: Type.Array({ $ref: 'Key' }) }) }, resolve), true);
  });

  test('names that only contain the words are not credentials', () => {
    const schema = Type.Object({ previous_secret_expires_at: Type.String(), token_count: Type.Integer(), secretary: Type.String(), tokens: Type.Integer() });
    assert.equal(showsCredential({ 200: schema }, none), false);
    assert.equal(showsCredential({ 204: { type: 'null' } }, none), false);
  });

  test('a $ref that does not resolve is an error, never a silent "no"', () => {
    assert.throws(() => showsCredential({ 201: { $ref: 'Missing#' } }, none), /\$ref Missing# is not registered/);
  });

  test('the service flags exactly the routes whose answers show a secret or token', async () => {
    const h = await createHarness('sqlite');
    try {
      assert.deepEqual([...h.app.credentialRoutes].sort(), [
        'GET /api/v1/session',
        'HEAD /api/v1/session',
        'POST /api/v1/api-keys',
        'POST /api/v1/session',
        'POST /api/v1/webhooks/endpoints',
        'POST /api/v1/webhooks/endpoints/:id/rotate-secret',
      ]);
    } finally {
      await h.close();
    }
  });
});
