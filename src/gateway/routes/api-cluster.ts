/**
 * @module gateway/routes/api-cluster
 * `GET /api/cluster` (administrators): this replica's id, whether its heartbeat keeps it in the
 * cluster, every live replica on the registry database (id, URL, start, last heartbeat), and
 * `watchedElsewhere`: how many users this replica knows to have an `/api/events` stream on another
 * replica (it relays their events; see cluster-event-relay).
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';

/** Adds `/api/cluster` (behind the auth middleware). */
export function registerClusterRoute(app: GatewayApp, gateway: Gateway): void {
  app.get('/api/cluster', async (c) => {
    if (!userOf(c).isAdmin) throw new SwitchboardError(ErrorCode.Forbidden, 'only an administrator may see the cluster', { hint: 'ask an administrator' });
    return c.json({ ...(await gateway.replica.status()), watchedElsewhere: gateway.relay.watchedElsewhere });
  });
}
