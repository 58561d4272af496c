/**
 * @module gateway/oauth-server/mcp-scope
 * What an OAuth access token's scopes allow on `/mcp`: `mcp` everything, `mcp:read` only what lists
 * or reads the catalog (initialize, ping, notifications, the `…/list` methods). A static API token
 * has no scopes and may do everything. A POST whose body the gateway could not look at needs `mcp`.
 */

/** The scope that allows everything on `/mcp`. */
export const FULL_SCOPE = 'mcp';
/** The scope that allows listing only. */
export const READ_SCOPE = 'mcp:read';

const READ_METHODS = new Set(['initialize', 'ping', 'tools/list', 'resources/list', 'resources/templates/list', 'prompts/list', 'subscriptions/listen']);

/** The scope a `/mcp` request needs. */
export function scopeNeededFor(method: string, body: { value: unknown } | undefined): typeof FULL_SCOPE | typeof READ_SCOPE {
  if (method !== 'POST') return READ_SCOPE;
  if (body === undefined) return FULL_SCOPE;
  const messages = Array.isArray(body.value) ? body.value : [body.value];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) return FULL_SCOPE;
    const name = (message as { method?: unknown }).method;
    // Answers to the gateway's own requests (no method) and notifications read nothing.
    if (name === undefined || (typeof name === 'string' && (name.startsWith('notifications/') || READ_METHODS.has(name)))) continue;
    return FULL_SCOPE;
  }
  return READ_SCOPE;
}

/** True when `scopes` (a token's; undefined for a static token) include what `needed` asks. */
export function scopesAllow(scopes: readonly string[] | undefined, needed: string): boolean {
  if (scopes === undefined) return true;
  return scopes.includes(FULL_SCOPE) || (needed === READ_SCOPE && scopes.includes(READ_SCOPE));
}
