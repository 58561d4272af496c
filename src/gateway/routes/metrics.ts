/**
 * @module gateway/routes/metrics
 * `GET /metrics`: the Prometheus exposition. A token is required; an administrator sees every user's
 * series, anyone else only their own.
 */

import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';

/** Adds `/metrics` (behind the auth middleware). */
export function registerMetricsRoute(app: GatewayApp, gateway: Gateway): void {
  app.get('/metrics', async (c) => {
    const text = await gateway.metrics.render(userOf(c));
    return c.body(text, 200, { 'content-type': gateway.metrics.contentType });
  });
}
