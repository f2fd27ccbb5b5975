/** The MCP endpoint's path on the service. */
export const MCP_PATH = '/mcp';

/** The server name MCP clients see. */
export const SERVER_NAME = 'custops';
