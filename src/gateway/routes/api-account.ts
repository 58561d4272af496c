/**
 * @module gateway/routes/api-account
 * `GET /api/me` (who the token belongs to) and `GET /api/stats` (the user's calls, errors and
 * latency per server and tool: `client.stats()`, the shape `switchboard stats` reads; in a cluster,
 * added up over the live replicas, with `replicas`).
 */

import type { MeResponse, StatsResponse } from '../../contract/api-contract.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';

/** Adds `/api/me` and `/api/stats` (behind the auth middleware). */
export function registerAccountRoutes(app: GatewayApp, gateway: Gateway): void {
  app.get('/api/me', (c) => {
    const user = userOf(c);
    return c.json({ user: { id: user.id, name: user.name, admin: user.isAdmin } } satisfies MeResponse);
  });

  app.get('/api/stats', async (c) => {
    const user = userOf(c);
    const lease = await gateway.lease(user);
    try {
      // In a cluster, with the other live replicas' numbers added (and how many replicas that is).
      return c.json((await gateway.clusterStats.forUser(user.id, lease.client.stats())) satisfies StatsResponse);
    } finally {
      lease.release();
    }
  });
}
