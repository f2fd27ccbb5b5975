import { parseArgs } from 'node:util';
import { GatewayStartError, serveStdioGateway } from './stdio.ts';

export const MCP_USAGE = 'custops mcp [--url URL]   (MCP over stdio; the API key comes from CUSTOPS_API_KEY)';
const DEFAULT_URL = 'http://127.0.0.1:8080';

/**
 * `custops mcp [--url URL]`: serves the service's MCP tools over stdio until the client closes
 * stdin. stdout is the protocol channel, so every complaint is one line on stderr. Exit codes:
 * 2 for a usage mistake (no CUSTOPS_API_KEY, a bad --url), 1 when the service refuses or cannot
 * be reached, 0 when the client hangs up.
 */
export async function runMcpCommand(args: string[], env: NodeJS.ProcessEnv, version: string): Promise<number> {
  const fail = (code: number, message: string) => {
    process.stderr.write(`custops mcp: ${message}\n`);
    return code;
  };
  let url: string;
  try {
    const { values } = parseArgs({ args, options: { url: { type: 'string' } }, strict: true, allowPositionals: false });
    url = values.url ?? DEFAULT_URL;
  } catch (err) {
    return fail(2, `${(err as Error).message.split('\n')[0]} (usage: ${MCP_USAGE})`);
  }
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return fail(2, `--url must be an http:// or https:// URL, not "${url}"`);
  const apiKey = env.CUSTOPS_API_KEY?.trim();
  if (!apiKey) return fail(2, 'CUSTOPS_API_KEY is not set: export the API key the tools act with (custops key create ... --scopes read)');
  try {
    await serveStdioGateway({ url, apiKey, version });
    return 0;
  } catch (err) {
    if (err instanceof GatewayStartError) return fail(1, err.message);
    throw err;
  }
}
