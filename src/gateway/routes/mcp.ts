/**
 * @module gateway/routes/mcp
 * `POST|GET|DELETE /mcp`: the aggregated MCP server (see {@link McpEndpoint}). During shutdown only
 * requests of existing sessions pass (a running call may still need its cancellation or its stream).
 */

import { ServerResponse } from 'node:http';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';
import { mcpErrorResponse } from '../http-error.js';

/** Adds `/mcp` (behind the auth middleware). */
export function registerMcpRoute(app: GatewayApp, gateway: Gateway): void {
  app.on(['GET', 'POST', 'DELETE'], '/mcp', async (c) => {
    if (gateway.shuttingDown && c.req.header('mcp-session-id') === undefined) {
      return mcpErrorResponse(new SwitchboardError(ErrorCode.Unavailable, 'the gateway is shutting down'));
    }
    // Served by @hono/node-server, the Node response says when a streamed answer is over.
    const outgoing: unknown = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
    const onEnd = outgoing instanceof ServerResponse ? (done: () => void) => void outgoing.once('close', done) : undefined;
    try {
      return await gateway.mcp.handle(c.req.raw, userOf(c), onEnd);
    } catch (error) {
      gateway.logger.warn('an /mcp request failed', { requestId: c.get('requestId'), error: error instanceof Error ? error.message : String(error) });
      return mcpErrorResponse(error);
    }
  });
}
