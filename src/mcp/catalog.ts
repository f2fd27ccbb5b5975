import { API_PREFIX } from '../http/openapi.ts';
import { grantsAny, isScope, type Scope } from '../modules/api-keys/scopes.ts';

type JsonSchema = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document the tool catalogue reads. */
export interface OpenApiDocument {
  paths?: Record<string, Record<string, OpenApiOperation | unknown>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  'x-required-scopes'?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
}

/** An MCP tool definition as `tools/list` returns it. */
export interface ToolDefinition {
  name: string;
  title?: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
}

/** One tool: its definition and how its arguments become the REST request. */
export interface CatalogTool {
  definition: ToolDefinition;
  method: string;
  /** The OpenAPI path, e.g. `/api/v1/deals/{id}`. */
  path: string;
  pathParams: string[];
  queryParams: string[];
  /** Whether the operation takes a JSON body (its fields are the remaining arguments). */
  hasBody: boolean;
  /** The body is the `body` argument as a whole (it is not an object of named fields). */
  wholeBody: boolean;
  /** A write without a body field for it: `idempotency_key` travels as the Idempotency-Key header. */
  idempotencyKeyAsHeader: boolean;
  /** Any one of these scopes grants the tool. */
  scopes: Scope[];
}

export interface ToolCatalog {
  tools: CatalogTool[];
  byName: Map<string, CatalogTool>;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const WRITE_METHODS = new Set(['put', 'post', 'patch', 'delete']);
const COMPONENT_REF = '#/components/schemas/';
export const WHOLE_BODY = 'body';
const IDEMPOTENCY_KEY: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description: 'Makes the call safe to retry: the same key with the same arguments answers the first result again (24 hours).',
};

/**
 * An operation is a tool when it is part of API v1 and accepts an API key (`bearerAuth` among its
 * security requirements). Public operations (the OpenAPI document, health) and routes that only a
 * console session may call are not: they declare no `bearerAuth`.
 */
function acceptsApiKey(op: OpenApiOperation): boolean {
  return (op.security ?? []).some((requirement) => Object.hasOwn(requirement, 'bearerAuth'));
}

/** A success answer a tool can return: JSON or nothing (a stream, for example, cannot be one tool result). */
function successSchema(op: OpenApiOperation): { ok: boolean; schema?: JsonSchema } {
  const codes = Object.keys(op.responses ?? {}).filter((c) => /^2\d\d$/.test(c));
  if (codes.length === 0) return { ok: false };
  for (const code of codes) {
    const content = op.responses![code].content;
    if (!content) continue;
    const json = content['application/json'];
    if (!json) return { ok: false };
    return { ok: true, schema: json.schema };
  }
  return { ok: true };
}

/** Rewrites `#/components/schemas/X` references to `#/$defs/X` and collects the components they reach. */
function localise(schema: unknown, components: Record<string, JsonSchema>, defs: Map<string, JsonSchema>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => localise(s, components, defs));
  if (!schema || typeof schema !== 'object') return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema as JsonSchema)) {
    if (key === 'properties' && value && typeof value === 'object') {
      // Field names are data here, not keywords: keep every one.
      out.properties = Object.fromEntries(Object.entries(value).map(([field, s]) => [field, localise(s, components, defs)]));
      continue;
    }
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_REF)) {
      const name = value.slice(COMPONENT_REF.length);
      if (!defs.has(name)) {
        const component = components[name];
        if (!component) throw new Error(`OpenAPI reference ${value} names no component`);
        defs.set(name, {}); // placeholder first: components may refer to themselves
        defs.set(name, localise(component, components, defs) as JsonSchema);
      }
      out.$ref = `#/$defs/${name}`;
    } else if (!key.startsWith('x-')) {
      // (OpenAPI extensions, `x-…`, mean nothing to a JSON Schema validator and are left out.)
      out[key] = localise(value, components, defs);
    }
  }
  return out;
}

/** The schema behind a top-level `$ref`, so its properties can be read. */
function deref(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): JsonSchema | undefined {
  const ref = schema?.$ref;
  return typeof ref === 'string' && ref.startsWith(COMPONENT_REF) ? components[ref.slice(COMPONENT_REF.length)] : schema;
}

function withDefs<T extends JsonSchema>(schema: T, defs: Map<string, JsonSchema>): T {
  return defs.size ? { ...schema, $defs: Object.fromEntries(defs) } : schema;
}

function toolFor(path: string, method: (typeof METHODS)[number], op: OpenApiOperation, components: Record<string, JsonSchema>): CatalogTool {
  const name = op.operationId;
  if (!name) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
  const defs = new Map<string, JsonSchema>();
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const claim = (field: string, schema: unknown) => {
    if (Object.hasOwn(properties, field)) throw new Error(`${name}: the argument "${field}" is both a parameter and a body field`);
    properties[field] = schema;
  };

  const pathParams: string[] = [];
  const queryParams: string[] = [];
  for (const p of op.parameters ?? []) {
    if (p.in !== 'path' && p.in !== 'query') continue; // headers (Idempotency-Key) are arguments of their own below
    const schema = localise({ ...(p.schema ?? {}), ...(p.description ? { description: p.description } : {}) }, components, defs);
    claim(p.name, schema);
    if (p.in === 'path') {
      pathParams.push(p.name);
      required.push(p.name);
    } else {
      queryParams.push(p.name);
      if (p.required) required.push(p.name);
    }
  }

  const bodySchema = deref(op.requestBody?.content?.['application/json']?.schema, components);
  const hasBody = bodySchema !== undefined;
  let strict = false;
  let wholeBody = false;
  if (bodySchema) {
    const body = localise(bodySchema, components, defs) as JsonSchema;
    const fields = body.type === 'object' && body.properties && typeof body.properties === 'object' ? (body.properties as Record<string, unknown>) : null;
    if (fields) {
      for (const [field, schema] of Object.entries(fields)) claim(field, schema);
      const bodyRequired = Array.isArray(body.required) ? (body.required as string[]) : [];
      // An optional body keeps its fields optional; a required one keeps its own list.
      if (op.requestBody?.required !== false) required.push(...bodyRequired);
      strict = body.additionalProperties === false;
    } else {
      // A body that is not an object of named fields (an array, a free-form object) is one argument.
      wholeBody = true;
      claim(WHOLE_BODY, { ...body, description: body.description ?? 'The request body.' });
      if (op.requestBody?.required !== false) required.push(WHOLE_BODY);
      strict = true;
    }
  }

  const write = WRITE_METHODS.has(method);
  const idempotencyKeyAsHeader = write && !Object.hasOwn(properties, 'idempotency_key');
  if (idempotencyKeyAsHeader) properties.idempotency_key = IDEMPOTENCY_KEY;

  const inputSchema = withDefs(
    {
      type: 'object' as const,
      properties,
      ...(required.length ? { required } : {}),
      // Without a body, unknown arguments become query parameters, which the API ignores (as over REST).
      ...(hasBody && strict ? { additionalProperties: false } : {}),
    },
    defs,
  );

  const success = successSchema(op);
  let outputSchema: (JsonSchema & { type: 'object' }) | undefined;
  const resolved = deref(success.schema, components);
  if (resolved && resolved.type === 'object') {
    const outDefs = new Map<string, JsonSchema>();
    outputSchema = withDefs(localise(resolved, components, outDefs) as JsonSchema & { type: 'object' }, outDefs);
  }

  const scopes = (op['x-required-scopes'] ?? []).filter(isScope);
  if (scopes.length === 0) throw new Error(`${name}: no x-required-scopes`);
  const description = [op.summary, op.description].filter(Boolean).join('\n\n');
  return {
    definition: {
      name,
      ...(op.summary ? { title: op.summary } : {}),
      description,
      inputSchema,
      ...(outputSchema ? { outputSchema } : {}),
      annotations: {
        readOnlyHint: method === 'get',
        destructiveHint: method === 'delete',
        idempotentHint: method === 'get' || method === 'put' || method === 'delete',
        openWorldHint: false,
      },
    },
    method: method.toUpperCase(),
    path,
    pathParams,
    queryParams,
    hasBody,
    wholeBody,
    idempotencyKeyAsHeader,
    scopes,
  };
}

/**
 * The tools, built from the service's own OpenAPI document: one per v1 operation that accepts an
 * API key, so a new route is a new tool and a changed schema a changed tool, with nothing to keep
 * in step by hand.
 */
export function buildToolCatalog(doc: OpenApiDocument): ToolCatalog {
  const components = doc.components?.schemas ?? {};
  const tools: CatalogTool[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith(`${API_PREFIX}/`)) continue;
    for (const method of METHODS) {
      const op = item[method] as OpenApiOperation | undefined;
      if (!op || !acceptsApiKey(op) || !successSchema(op).ok) continue;
      tools.push(toolFor(path, method, op, components));
    }
  }
  const byName = new Map<string, CatalogTool>();
  for (const tool of tools) {
    if (byName.has(tool.definition.name)) throw new Error(`two operations are named ${tool.definition.name}`);
    byName.set(tool.definition.name, tool);
  }
  return { tools, byName };
}

/** Whether a key with these scopes may call the tool (null: full access). */
export function toolAllowed(tool: CatalogTool, held: ReadonlySet<string> | null): boolean {
  return grantsAny(held, tool.scopes);
}
