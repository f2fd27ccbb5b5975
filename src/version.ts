/** The API version the service reports (OpenAPI `info.version`, the MCP server's version). */
export const VERSION = '1.0.0';
