/**
 * @module gateway/routes/mcp
 * `POST|GET|DELETE /mcp`: the aggregated MCP server (see {@link McpEndpoint}). During shutdown only
 * requests of existing sessions pass (a running call may still need its cancellation or its stream).
 */

import { IncomingMessage, ServerResponse } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp, type GatewayContext } from '../gateway-app-types.js';
import type { McpEndpoint } from '../mcp-endpoint.js';
import { mcpErrorResponse } from '../http-error.js';
import { takeReadBody } from '../fast-mcp-path.js';
import { readJsonBody } from '../read-node-body.js';
import { scopeNeededFor, scopesAllow } from '../oauth-server/mcp-scope.js';
import { refuseBadHop } from '../mcp-hop.js';
import type { RegistryUser } from '../../registry/index.js';

/** Adds `/mcp` (behind the auth middleware). */
export function registerMcpRoute(app: GatewayApp, gateway: Gateway): void {
  app.on(['GET', 'POST', 'DELETE'], '/mcp', (c) =>
    serveMcp(c, gateway, (user) => {
      if (gateway.access.everythingAllowed(user)) return gateway.mcp;
      const names = gateway.access.endpointsOf(user).map((endpoint) => `/mcp/e/${endpoint.name}`);
      return mcpErrorResponse(new SwitchboardError(ErrorCode.Forbidden, 'the administrator turned /mcp off: use a named endpoint', { hint: names.length === 0 ? 'ask an administrator for an endpoint' : `yours: ${names.join(', ')}` }));
    }),
  );
}

/**
 * Serves one MCP request of the authenticated user on the endpoint `endpointOf` picks for them (`/mcp`
 * or a named one), or answers its refusal. A request carrying the replica hop header is refused first
 * unless the hop verifies: the auth middleware took a DPoP-bound token without a proof on the strength
 * of that hop (auth.ts), so until it verifies nothing of the user — their endpoints, their scopes — is
 * looked at or told.
 */
export async function serveMcp(c: GatewayContext, gateway: Gateway, endpointOf: (user: RegistryUser) => McpEndpoint | Response): Promise<Response> {
  {
    if (gateway.shuttingDown && c.req.header('mcp-session-id') === undefined) {
      return mcpErrorResponse(new SwitchboardError(ErrorCode.Unavailable, 'the gateway is shutting down'));
    }
    // Served by @hono/node-server: the Node response says when a streamed answer is over, and a JSON
    // body is read from the Node request once, here (see read-node-body).
    const env = c.env as { incoming?: unknown; outgoing?: unknown } | undefined;
    const outgoing = env?.outgoing;
    const incoming = env?.incoming;
    const onEnd = outgoing instanceof ServerResponse ? (done: () => void) => void outgoing.once('close', done) : undefined;
    let parsedBody: { value: unknown } | undefined;
    if (c.req.method === 'POST' && incoming instanceof IncomingMessage && isJsonContentType(c.req.header('content-type') ?? null)) {
      // The fast path may have read it already (and left the request to this route).
      const body = takeReadBody(incoming) ?? (await readJsonBody(incoming, gateway.maxBodyBytes));
      if (body.kind === 'too-large') return mcpErrorResponse(new SwitchboardError(ErrorCode.PayloadTooLarge, `the request body is over ${gateway.maxBodyBytes} bytes`));
      if (body.kind === 'invalid') return c.json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null }, 400);
      parsedBody = { value: body.value };
    }
    const user = userOf(c);
    const badHop = refuseBadHop(gateway.hop, c.req.raw, user, parsedBody);
    if (badHop !== undefined) return badHop;
    const endpoint = endpointOf(user);
    if (endpoint instanceof Response) return endpoint;
    const needed = scopeNeededFor(c.req.method, parsedBody);
    if (!scopesAllow(c.get('scopes'), needed)) {
      const refusal = mcpErrorResponse(new SwitchboardError(ErrorCode.Forbidden, `this access token lacks the scope "${needed}"`, { hint: 'authorize again with that scope' }));
      if (gateway.oauth !== undefined) refusal.headers.set('www-authenticate', gateway.oauth.challenge({ error: 'insufficient_scope', scope: needed }));
      return refusal;
    }
    try {
      return await endpoint.handle(c.req.raw, user, onEnd, parsedBody);
    } catch (error) {
      gateway.logger.warn('an /mcp request failed', { requestId: c.get('requestId'), path: c.req.path, error: error instanceof Error ? error.message : String(error) });
      return mcpErrorResponse(error);
    }
  }
}
