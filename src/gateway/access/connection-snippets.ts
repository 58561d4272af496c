/**
 * @module gateway/access/connection-snippets
 * How to connect an MCP client to an endpoint: the config snippet of Claude Desktop (through
 * `mcp-remote`, since its config file takes only local commands), Cursor and VS Code. The token is
 * a placeholder: snippets are shown on screens and never carry a secret.
 */

/** The snippets of one endpoint URL, each a JSON object to paste into that client's config file. */
export interface ConnectionSnippets {
  claudeDesktop: Record<string, unknown>;
  cursor: Record<string, unknown>;
  vscode: Record<string, unknown>;
}

/** Where the user puts their own token. */
export const TOKEN_PLACEHOLDER = '<your switchboard token>';

/** The snippets for `url`, naming the server entry `name`. */
export function connectionSnippets(url: string, name: string): ConnectionSnippets {
  const authorization = `Bearer ${TOKEN_PLACEHOLDER}`;
  return {
    claudeDesktop: { mcpServers: { [name]: { command: 'npx', args: ['-y', 'mcp-remote', url, '--header', `Authorization:${authorization}`] } } },
    cursor: { mcpServers: { [name]: { url, headers: { Authorization: authorization } } } },
    vscode: { servers: { [name]: { type: 'http', url, headers: { Authorization: authorization } } } },
  };
}
