import type { CallToolResult } from '@modelcontextprotocol/server';
import { WHOLE_BODY, type CatalogTool } from './catalog.ts';

/** The REST request a tool call stands for. */
export interface RestRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** The REST answer, as Fastify's injector returns it. */
export interface RestResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** A path argument that cannot be placed in the URL: answered like the API's own validation error. */
export class MissingPathArgument extends Error {
  readonly field: string;
  readonly reason: 'required' | 'invalid_type';
  constructor(field: string, reason: 'required' | 'invalid_type') {
    super(`${field} is ${reason === 'required' ? 'required' : 'not a number or text'}.`);
    this.field = field;
    this.reason = reason;
  }
}

function queryValues(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(queryValues);
  // Objects are sent as their JSON text, which the API then refuses naming the field, as it would over REST.
  return [typeof value === 'object' ? JSON.stringify(value) : String(value)];
}

/**
 * Arguments → the REST request with the caller's key: path parameters fill the path, query
 * parameters the query string, everything else the JSON body (or, for an operation without a body,
 * the query string, where the API ignores what it does not define, as over REST).
 */
export function toRestRequest(tool: CatalogTool, args: Record<string, unknown>, apiKey: string): RestRequest {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, accept: 'application/json' };
  let path = tool.path;
  for (const name of tool.pathParams) {
    const value = args[name];
    if (value === undefined || value === null || value === '') throw new MissingPathArgument(name, 'required');
    if (typeof value !== 'string' && typeof value !== 'number') throw new MissingPathArgument(name, 'invalid_type');
    path = path.replace(`{${name}}`, encodeURIComponent(String(value)));
  }
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (tool.pathParams.includes(name)) continue;
    if (name === 'idempotency_key' && tool.idempotencyKeyAsHeader) {
      if (value !== undefined && value !== null) headers['idempotency-key'] = String(value);
    } else if (tool.queryParams.includes(name) || !tool.hasBody) {
      for (const v of queryValues(value)) query.append(name, v);
    } else {
      body[name] = value;
    }
  }
  const search = query.size ? `?${query}` : '';
  const request: RestRequest = { method: tool.method, url: path + search, headers };
  if (tool.hasBody) {
    headers['content-type'] = 'application/json';
    request.payload = JSON.stringify(tool.wholeBody ? (body[WHOLE_BODY] ?? {}) : body);
  }
  return request;
}

function header(res: RestResponse, name: string): string | undefined {
  const value = res.headers[name];
  return value === undefined ? undefined : String(value);
}

/**
 * The REST answer → the tool result. Success: the JSON body as `structuredContent` and as the one
 * text item. An API error: `isError` with the error model plus its HTTP status, and no
 * `structuredContent` (the output schema describes success only). `_meta` carries the status and
 * the request id of the REST request, which its log line names.
 */
export function toToolResult(res: RestResponse): CallToolResult {
  const meta: Record<string, unknown> = { 'custops/status': res.statusCode };
  const requestId = header(res, 'x-request-id');
  if (requestId) meta['custops/request_id'] = requestId;
  if (header(res, 'idempotent-replayed') === 'true') meta['custops/idempotent_replayed'] = true;
  const parsed: unknown = res.body ? JSON.parse(res.body) : undefined;
  if (res.statusCode >= 200 && res.statusCode < 300) {
    if (parsed === undefined) return { content: [{ type: 'text', text: JSON.stringify({ status: res.statusCode }) }], _meta: meta };
    const result: CallToolResult = { content: [{ type: 'text', text: res.body }], _meta: meta };
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) result.structuredContent = parsed as Record<string, unknown>;
    return result;
  }
  const error = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { error: 'internal_error', message: res.body };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ ...error, status: res.statusCode }) }], _meta: meta };
}
