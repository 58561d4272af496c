/**
 * @module gateway/oauth-server/mcp-scope-names
 * The scopes of `/mcp`: `mcp` calls tools (and everything else), `mcp:read` only lists.
 */

export const MCP_SCOPES = ['mcp', 'mcp:read'] as const;
