import { Client, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { MCP_PATH, SERVER_NAME } from './names.ts';

export interface StdioGatewayOptions {
  /** The service's base URL, e.g. http://127.0.0.1:8080. */
  url: string;
  apiKey: string;
  version: string;
}

/** Why the gateway could not start: one line for stderr. */
export class GatewayStartError extends Error {}

/** The MCP endpoint under a base URL that may itself have a path (a service behind a proxy prefix). */
export function mcpEndpoint(base: string): URL {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, '') + MCP_PATH;
  return url;
}

async function connectUpstream(opts: StdioGatewayOptions): Promise<Client> {
  const endpoint = mcpEndpoint(opts.url);
  const client = new Client({ name: `${SERVER_NAME}-mcp-stdio`, version: opts.version }, { versionNegotiation: { mode: 'auto' } });
  const transport = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { Authorization: `Bearer ${opts.apiKey}` } } });
  try {
    await client.connect(transport);
  } catch (err) {
    const status = err instanceof SdkHttpError ? err.status : undefined;
    if (status === 401) throw new GatewayStartError(`the service at ${opts.url} refused the API key in CUSTOPS_API_KEY (401)`);
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new GatewayStartError(`cannot reach the MCP endpoint ${endpoint.href}: ${reason}`);
  }
  return client;
}

/**
 * `custops mcp`: the service's MCP tools over stdio, for clients that start a local process. It is
 * a relay, not a second implementation: it connects to the service's `/mcp` with the key and
 * forwards `tools/list` and `tools/call` there, so the tools, their scopes and their answers are
 * the service's own. Resolves when the client closes stdin.
 */
export async function serveStdioGateway(opts: StdioGatewayOptions): Promise<void> {
  const upstream = await connectUpstream(opts);
  const done = new Promise<void>((resolve) => process.stdin.once('close', resolve).once('end', resolve));
  const handle = serveStdio(
    () => {
      const server = new Server({ name: SERVER_NAME, version: opts.version }, { capabilities: { tools: {} }, instructions: upstream.getInstructions() });
      server.setRequestHandler('tools/list', async (request) => upstream.listTools(request.params));
      server.setRequestHandler('tools/call', async (request) => upstream.callTool(request.params));
      return server;
    },
    { onerror: (err) => process.stderr.write(`custops mcp: ${err.message.split('\n')[0]}\n`) },
  );
  await done;
  await handle.close();
  await upstream.close();
}
