import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildToolCatalog, toolAllowed, type OpenApiDocument } from '../../src/mcp/catalog.ts';
import { MissingPathArgument, toRestRequest, toToolResult } from '../../src/mcp/rest-call.ts';

const bearer = [{ bearerAuth: [] }];
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const idParam = { name: 'id', in: 'path', required: true, schema: { type: 'integer' } };

const doc: OpenApiDocument = {
  components: {
    schemas: {
      Thing: { type: 'object', properties: { id: { type: 'integer' }, parent: { $ref: '#/components/schemas/Thing' } }, 'x-internal': true },
    },
  },
  paths: {
    '/api/v1/openapi.json': { get: { operationId: 'getDoc', security: [], responses: { 200: json({ type: 'object' }) } } },
    '/api/v1/session': { get: { operationId: 'getSession', security: [{ sessionCookie: [] }], responses: { 200: json({ type: 'object' }) } } },
    '/api/v1/events/stream': {
      get: { operationId: 'streamEvents', security: bearer, 'x-required-scopes': ['read'], responses: { 200: { content: { 'text/event-stream': {} } } } },
    },
    '/api/v1/things': {
      get: {
        operationId: 'listThings',
        summary: 'List things',
        security: bearer,
        'x-required-scopes': ['deals:read'],
        parameters: [
          { name: 'status', in: 'query', schema: { enum: ['a', 'b'] } },
          { name: 'X-Trace', in: 'header', schema: { type: 'string' } },
        ],
        responses: { 200: json({ type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Thing' } } } }) },
      },
      post: {
        operationId: 'createThing',
        security: bearer,
        'x-required-scopes': ['*'],
        requestBody: {
          required: true,
          ...json({
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, idempotency_key: { type: 'string' } },
            additionalProperties: false,
          }),
        },
        responses: { 201: json({ $ref: '#/components/schemas/Thing' }) },
      },
    },
    '/api/v1/things/{id}': {
      put: {
        operationId: 'replaceTags',
        security: bearer,
        'x-required-scopes': ['deals:write'],
        parameters: [idParam],
        requestBody: { required: false, ...json({ type: 'array', items: { type: 'string' } }) },
        responses: { 200: json({ type: 'array' }) },
      },
      delete: {
        operationId: 'deleteThing',
        security: bearer,
        'x-required-scopes': ['deals:write'],
        parameters: [idParam],
        responses: { 204: { description: 'Gone' } },
      },
    },
  },
};

describe('MCP tool catalogue from an OpenAPI document', () => {
  const catalog = buildToolCatalog(doc);
  const tool = (name: string) => catalog.byName.get(name)!;

  test('only v1 operations that take an API key and answer JSON or nothing are tools', () => {
    assert.deepEqual(catalog.tools.map((t) => t.definition.name).sort(), ['createThing', 'deleteThing', 'listThings', 'replaceTags']);
  });

  test('references become $defs (recursion included) and OpenAPI extensions are dropped', () => {
    const list = tool('listThings').definition;
    assert.equal(list.title, 'List things');
    const out = list.outputSchema as unknown as { properties: { data: { items: { $ref: string } } }; $defs: Record<string, Record<string, unknown>> };
    assert.equal(out.properties.data.items.$ref, '#/$defs/Thing');
    assert.equal((out.$defs.Thing.properties as { parent: { $ref: string } }).parent.$ref, '#/$defs/Thing');
    assert.equal('x-internal' in out.$defs.Thing, false);
    assert.deepEqual(Object.keys(list.inputSchema.properties as object), ['status'], 'header parameters are not arguments');
    assert.equal(list.inputSchema.additionalProperties, undefined);
  });

  test('a body of fields: its required list and strictness; a $ref success answer resolved to an object output schema', () => {
    const create = tool('createThing').definition;
    assert.deepEqual(create.inputSchema.required, ['name']);
    assert.equal(create.inputSchema.additionalProperties, false);
    assert.equal(create.outputSchema?.type, 'object');
    assert.equal(tool('createThing').idempotencyKeyAsHeader, false);
  });

  test('a body that is not an object of fields is the `body` argument; an array answer has no output schema', () => {
    const replace = tool('replaceTags');
    assert.equal(replace.wholeBody, true);
    assert.deepEqual(replace.definition.inputSchema.required, ['id'], 'an optional body stays optional');
    assert.equal(replace.definition.outputSchema, undefined);
    const rest = toRestRequest(replace, { id: 4, body: ['x'], idempotency_key: 'k1' }, 'cok_x');
    assert.equal(rest.url, '/api/v1/things/4');
    assert.equal(rest.payload, '["x"]');
    assert.equal(rest.headers['idempotency-key'], 'k1');
  });

  test('a body-less write takes idempotency_key as the header; extra arguments go to the query string', () => {
    const del = tool('deleteThing');
    assert.equal(del.definition.annotations.destructiveHint, true);
    assert.ok('idempotency_key' in (del.definition.inputSchema.properties as object));
    const rest = toRestRequest(del, { id: 'a/b', idempotency_key: 'k', note: 'x' }, 'cok_x');
    assert.equal(rest.url, '/api/v1/things/a%2Fb?note=x');
    assert.equal(rest.payload, undefined);
    assert.equal(rest.headers.authorization, 'Bearer cok_x');
    assert.throws(
      () => toRestRequest(del, {}, 'k'),
      (e) => e instanceof MissingPathArgument && e.field === 'id' && e.reason === 'required',
    );
    assert.throws(
      () => toRestRequest(del, { id: { x: 1 } }, 'k'),
      (e) => e instanceof MissingPathArgument && e.reason === 'invalid_type',
    );
  });

  test('scopes decide which tools a key may call', () => {
    assert.equal(toolAllowed(tool('listThings'), new Set(['read'])), true);
    assert.equal(toolAllowed(tool('createThing'), new Set(['read', 'deals:write'])), false);
    assert.equal(toolAllowed(tool('deleteThing'), new Set(['deals:write'])), true);
    assert.equal(toolAllowed(tool('createThing'), null), true);
  });

  test('an argument that is both a parameter and a body field stops the catalogue', () => {
    const clash: OpenApiDocument = {
      paths: {
        '/api/v1/x/{id}': {
          patch: {
            operationId: 'patchX',
            security: bearer,
            'x-required-scopes': ['*'],
            parameters: [idParam],
            requestBody: json({ type: 'object', properties: { id: { type: 'integer' } } }),
            responses: { 200: json({ type: 'object' }) },
          },
        },
      },
    };
    assert.throws(() => buildToolCatalog(clash), /patchX: the argument "id"/);
  });

  test('results: success as structuredContent and text, 204 as a status text, errors with their status and no structuredContent', () => {
    const ok = toToolResult({ statusCode: 200, headers: { 'x-request-id': 'req_1' }, body: '{"a":1}' });
    assert.deepEqual(ok.structuredContent, { a: 1 });
    assert.deepEqual(ok.content, [{ type: 'text', text: '{"a":1}' }]);
    assert.deepEqual(ok._meta, { 'custops/status': 200, 'custops/request_id': 'req_1' });
    const empty = toToolResult({ statusCode: 204, headers: {}, body: '' });
    assert.deepEqual(empty.content, [{ type: 'text', text: '{"status":204}' }]);
    assert.equal(empty.structuredContent, undefined);
    const err = toToolResult({ statusCode: 404, headers: { 'idempotent-replayed': 'true' }, body: '{"error":"deal_not_found","message":"No."}' });
    assert.equal(err.isError, true);
    assert.equal(err.structuredContent, undefined);
    assert.deepEqual(JSON.parse((err.content[0] as { text: string }).text), { error: 'deal_not_found', message: 'No.', status: 404 });
    assert.equal((err._meta as Record<string, unknown>)['custops/idempotent_replayed'], true);
  });
});
