/**
 * @module gateway/routes/health
 * `GET /healthz` (the process answers) and `GET /readyz` (the registry answers, this replica's
 * heartbeat keeps it in the cluster and the gateway is not shutting down). No token: load balancers
 * and orchestrators call them.
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
    // An app not started by startGateway never joined a cluster (a cluster of one): still ready. The
    // replicas themselves are listed to administrators only (`/api/cluster`): this answer needs no token.
    if (gateway.replica.started && !gateway.replica.inCluster) return c.json({ ready: false, reason: 'this replica is not in the cluster: its heartbeat does not reach the database' }, 503);
    return c.json({ ready: true });
  });
}
