import type { FastifyBaseLogger } from 'fastify';
import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult } from '@modelcontextprotocol/server';
import { toolAllowed, type ToolCatalog, type ToolDefinition } from './catalog.ts';
import { SERVER_NAME } from './names.ts';
import { MissingPathArgument, toRestRequest, toToolResult, type RestRequest, type RestResponse } from './rest-call.ts';

/** Who calls, and how a REST request is carried out for them. */
export interface ToolCaller {
  apiKey: string;
  /** null: full access. */
  scopes: ReadonlySet<string> | null;
  /** The MCP request's own id (for answers given before any REST request runs). */
  requestId: string;
  log: FastifyBaseLogger;
  rest(request: RestRequest): Promise<RestResponse>;
}

// Distinct scope sets whose tool lists are kept; past this the cache starts over (keys rarely differ this much).
const MAX_SCOPE_SETS = 256;

/**
 * The MCP server of one exchange, for one caller: `tools/list` shows the tools the key's scopes
 * allow; `tools/call` runs the operation's REST request with the caller's key and turns its answer
 * into the tool result. A tool the key may not call is answered as an unknown tool, naming nothing
 * more. A new instance per exchange is what the SDK's serving entry expects, and costs about as
 * much as a few object allocations; what each exchange would otherwise recompute, the list of
 * tools a scope set may see, is computed once per scope set and only when `tools/list` asks.
 */
export function createToolServers(catalog: ToolCatalog, version: string): (caller: ToolCaller) => Server {
  const lists = new Map<string, ToolDefinition[]>();
  const visibleTo = (scopes: ReadonlySet<string> | null): ToolDefinition[] => {
    const key = scopes === null ? '*' : [...scopes].sort().join(' ');
    let definitions = lists.get(key);
    if (!definitions) {
      if (lists.size >= MAX_SCOPE_SETS) lists.clear();
      definitions = catalog.tools.filter((tool) => toolAllowed(tool, scopes)).map((tool) => tool.definition);
      lists.set(key, definitions);
    }
    return definitions;
  };

  return (caller) => {
    const server = new Server(
      { name: SERVER_NAME, version },
      {
        capabilities: { tools: {} },
        instructions:
          "Tools are the operations of the custops API v1, limited to what this API key may do. Results are the API's JSON; " +
          'an API error is a tool result with isError and the error model (error, message, fields, request_id, status).',
      },
    );

    server.setRequestHandler('tools/list', async () => ({ tools: visibleTo(caller.scopes) }));

    server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
      const { name } = request.params;
      const tool = catalog.byName.get(name);
      if (!tool || !toolAllowed(tool, caller.scopes)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
      const args: unknown = request.params.arguments ?? {};
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Tool arguments must be a JSON object.');
      }
      let rest: RestRequest;
      try {
        rest = toRestRequest(tool, args as Record<string, unknown>, caller.apiKey);
      } catch (err) {
        if (!(err instanceof MissingPathArgument)) throw err;
        // No URL can be built without it; answered in the API's own words for a missing or mistyped field.
        const body = { error: 'validation_error', message: err.message, fields: { [err.field]: err.reason }, request_id: caller.requestId };
        return toToolResult({ statusCode: 422, headers: { 'x-request-id': caller.requestId }, body: JSON.stringify(body) });
      }
      const response = await caller.rest(rest);
      caller.log.info({ tool: name, status: response.statusCode, call_request_id: response.headers['x-request-id'] }, 'mcp tool call');
      return toToolResult(response);
    });
    return server;
  };
}
