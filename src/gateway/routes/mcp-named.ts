/**
 * @module gateway/routes/mcp-named
 * `POST|GET|DELETE /mcp/e/NAME`: a named endpoint — the caller's tools narrowed, renamed and governed
 * by that endpoint (see {@link GatewayAccess}). An endpoint the caller may not use answers like one
 * that does not exist (404).
 */

import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';
import { mcpErrorResponse } from '../http-error.js';
import { serveMcp } from './mcp.js';

/** Adds `/mcp/e/:name` (behind the auth middleware). */
export function registerNamedMcpRoute(app: GatewayApp, gateway: Gateway): void {
  app.on(['GET', 'POST', 'DELETE'], '/mcp/e/:name', async (c) => {
    let endpoint;
    try {
      endpoint = gateway.access.namedEndpoint(userOf(c), c.req.param('name'));
    } catch (error) {
      return mcpErrorResponse(error);
    }
    return serveMcp(c, gateway, endpoint);
  });
}
