/**
 * @module gateway/oauth-server/protected-resource
 * What the gateway needs from whoever issues its OAuth access tokens — its own authorization server
 * or an external one: the RFC 9728 metadata of `/mcp`, the `WWW-Authenticate` challenge, and the
 * verification of a token (remembered by the gateway's token cache, so it runs once per token and TTL).
 */

import type { AccessTokenVerifier } from '../auth.js';
import { MCP_SCOPES } from './mcp-scope-names.js';

/** The gateway's `/mcp` as an OAuth protected resource. */
export interface ProtectedResource extends AccessTokenVerifier {
  /** `<public URL>/mcp`. */
  readonly resource: string;
  /** RFC 9728 metadata. */
  protectedResourceMetadata(): Record<string, unknown>;
  /** The `WWW-Authenticate` value of a 401 (or, with `error`, a 403 insufficient_scope). */
  challenge(error?: { error: string; scope: string }): string;
  close(): Promise<void>;
}

/** The metadata of `resource` whose tokens come from `issuer`. */
export function resourceMetadata(resource: string, issuer: string): Record<string, unknown> {
  return { resource, authorization_servers: [issuer], scopes_supported: [...MCP_SCOPES], bearer_methods_supported: ['header'], resource_name: 'mcp-switchboard gateway' };
}

/** Where the metadata of `resource` is served (the path-suffixed form, RFC 9728 §3.1). */
export function resourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}

/** A Bearer challenge naming the metadata, and the scope to ask for. */
export function bearerChallenge(resource: string, error?: { error: string; scope: string }): string {
  const parts = [`resource_metadata="${resourceMetadataUrl(resource)}"`];
  if (error !== undefined) return `Bearer error="${error.error}", ${parts[0] ?? ''}, scope="${error.scope}"`;
  return `Bearer ${parts[0] ?? ''}, scope="${MCP_SCOPES[0]}"`;
}
