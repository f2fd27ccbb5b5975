import { VERSION } from '../version.ts';
import { defineCommand, UsageError } from './command.ts';

const DEFAULT_URL = 'http://127.0.0.1:8080';

/**
 * stdout is the protocol channel here, so every complaint is one line on stderr: 2 for a usage
 * mistake (no CUSTOPS_API_KEY, a bad --url), 1 when the service refuses the key or cannot be
 * reached at start, 0 when the client closes stdin.
 */
export const mcpCommand = defineCommand({
  name: 'mcp',
  summary:
    'Serves the MCP tools of the service over stdio (for AI clients that start a local process), acting with the API key in ' +
    'CUSTOPS_API_KEY; runs until the client closes stdin.',
  options: {
    url: { type: 'string', value: 'URL', help: `the custops service to forward to (default ${DEFAULT_URL})` },
  },
  async run(values, ctx) {
    const url = values.url ?? DEFAULT_URL;
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) throw new UsageError(`--url must be an http:// or https:// URL, not "${url}"`);
    const apiKey = ctx.env.CUSTOPS_API_KEY?.trim();
    if (!apiKey) throw new UsageError('CUSTOPS_API_KEY is not set: export the API key the tools act with (custops key create ... --scopes read)');
    // Loaded here: the other commands need none of the MCP SDK.
    const { GatewayStartError, serveStdioGateway } = await import('../mcp/stdio.ts');
    try {
      await serveStdioGateway({ url, apiKey, version: VERSION });
      return 0;
    } catch (err) {
      if (!(err instanceof GatewayStartError)) throw err;
      ctx.log(`custops mcp: ${err.message}`);
      return 1;
    }
  },
});
