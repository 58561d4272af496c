/**
 * @module gateway/routes/mcp-named
 * `POST|GET|DELETE /mcp/e/NAME`: a named endpoint — the caller's tools narrowed, renamed and governed
 * by that endpoint (see {@link GatewayAccess}). An endpoint the caller may not use answers like one
 * that does not exist (404).
 */

import type { Gateway } from '../gateway.js';
import type { GatewayApp } from '../gateway-app-types.js';
import { mcpErrorResponse } from '../http-error.js';
import { serveMcp } from './mcp.js';

/** Adds `/mcp/e/:name` (behind the auth middleware). */
export function registerNamedMcpRoute(app: GatewayApp, gateway: Gateway): void {
  app.on(['GET', 'POST', 'DELETE'], '/mcp/e/:name', (c) =>
    serveMcp(c, gateway, (user) => {
      try {
        return gateway.access.namedEndpoint(user, c.req.param('name'));
      } catch (error) {
        return mcpErrorResponse(error);
      }
    }),
  );
}
