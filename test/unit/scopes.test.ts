import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { grants, parseStoredScopes, satisfyingScopes, SCOPES } from '../../src/modules/api-keys/scopes.ts';
import { parseScopeList } from '../../src/modules/api-keys/api-keys.service.ts';

describe('scope resolution', () => {
  test('"*" and null (legacy) scopes grant every scope, including "*"', () => {
    for (const s of SCOPES) {
      assert.equal(grants(null, s), true);
      assert.equal(grants(new Set(['*']), s), true);
    }
  });

  test('"read" grants every :read scope and nothing else', () => {
    const held = new Set(['read']);
    for (const s of SCOPES.filter((x) => x !== 'read')) assert.equal(grants(held, s), s.endsWith(':read'), s);
  });

  test('a narrow scope grants exactly itself', () => {
    const held = new Set(['deals:write']);
    assert.equal(grants(held, 'deals:write'), true);
    assert.equal(grants(held, 'deals:read'), false, 'write does not imply read');
    assert.equal(grants(held, '*'), false);
    assert.equal(grants(new Set(['deals:read', 'support:read']), 'support:read'), true);
  });

  test('routes that need "*" are granted by "*" only', () => {
    const everythingElse = new Set(SCOPES.filter((s) => s !== '*'));
    assert.equal(grants(everythingElse, '*'), false);
  });

  test('stored scopes: null and ["*"] mean full access', () => {
    assert.equal(parseStoredScopes(null), null);
    assert.equal(parseStoredScopes('["*"]'), null);
    assert.deepEqual([...parseStoredScopes('["read","deals:write"]')!], ['read', 'deals:write']);
  });

  test('required_scopes lists what would satisfy', () => {
    assert.deepEqual(satisfyingScopes('deals:read'), ['deals:read', 'read', '*']);
    assert.deepEqual(satisfyingScopes('deals:write'), ['deals:write', '*']);
    assert.deepEqual(satisfyingScopes('*'), ['*']);
  });

  test('CLI scope lists: default "*", de-duplicated, unknown refused', () => {
    assert.deepEqual(parseScopeList(undefined), ['*']);
    assert.deepEqual(parseScopeList(' deals:read, deals:write ,deals:read'), ['deals:read', 'deals:write']);
    assert.throws(() => parseScopeList('deals:read,customers:read'), /customers:read/);
    assert.throws(() => parseScopeList(''), /empty/);
    assert.throws(() => parseScopeList(' , '), /empty/);
  });
});
