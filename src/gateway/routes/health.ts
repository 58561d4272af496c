/**
 * @module gateway/routes/health
 * `GET /healthz` (the process answers) and `GET /readyz` (the registry answers and the gateway is
 * not shutting down). No token: load balancers and orchestrators call them.
 */

import type { Gateway } from '../gateway.js';
import type { GatewayApp } from '../gateway-app-types.js';

/** Adds `/healthz` and `/readyz`. */
export function registerHealthRoutes(app: GatewayApp, gateway: Gateway): void {
  app.get('/healthz', (c) => c.json({ ok: true }));
  app.get('/readyz', async (c) => {
    if (gateway.shuttingDown) return c.json({ ready: false, reason: 'shutting down' }, 503);
    try {
      await gateway.registry.policy();
    } catch {
      return c.json({ ready: false, reason: 'the registry does not answer' }, 503);
    }
    return c.json({ ready: true });
  });
}
