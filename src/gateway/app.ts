/**
 * @module gateway/app
 * The gateway's HTTP surface as a Hono app (no listening: tests call `app.request()`, `startGateway`
 * serves it). Every request passes, in order:
 * 1. the request log and metrics (one JSON line: requestId, method, path, status, ms — never the
 *    query, which may carry `?token=`);
 * 2. the Host and Origin check (403): DNS rebinding protection, on every route but the probes;
 * 3. for `/mcp`, `/api` and `/metrics`: the bearer token (401), also on loopback;
 * 4. for `/api`: the body limit (413) and, while shutting down, 503.
 * No route sends CORS headers: browsers allow only same-origin calls (the dashboard's).
 *
 * @example
 * ```ts
 * const gateway = await Gateway.create({ registry });
 * const app = createGatewayApp(gateway);
 * const response = await app.request('/api/me', { headers: { authorization: `Bearer ${token}`, host: '127.0.0.1' } });
 * ```
 */

import { randomBytes } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { routePath } from 'hono/route';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import type { Gateway } from './gateway.js';
import type { GatewayApp, GatewayEnv } from './gateway-app-types.js';
import { apiErrorResponse, mcpErrorResponse } from './http-error.js';
import { registerAccountRoutes } from './routes/api-account.js';
import { registerEventsRoute } from './routes/api-events.js';
import { registerLoginRoutes } from './routes/api-login.js';
import { registerServerRoutes } from './routes/api-servers.js';
import { registerTemplateRoutes } from './routes/api-templates.js';
import { registerToolRoutes } from './routes/api-tools.js';
import { registerToolSearchRoutes } from './routes/api-tool-search.js';
import { registerTaskRoutes } from './routes/api-tasks.js';
import { registerDashboardRoutes } from './routes/dashboard.js';
import { registerHealthRoutes } from './routes/health.js';
import { registerAccessRoutes } from './routes/api-access.js';
import { registerMcpRoute } from './routes/mcp.js';
import { registerNamedMcpRoute } from './routes/mcp-named.js';
import { registerMetricsRoute } from './routes/metrics.js';
import { registerClusterRoute } from './routes/api-cluster.js';
import { registerOAuthRoutes } from './oauth-server/oauth-routes.js';
import { dpopChallenge, dpopErrorOf } from './dpop-proof.js';
import { FULL_SCOPE, scopesAllow } from './oauth-server/mcp-scope.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Request ids: a random prefix per process and a counter (unique, and cheaper than a UUID per request). */
const ID_PREFIX = randomBytes(4).toString('hex');
let nextId = 0;
function newRequestId(): string {
  return `${ID_PREFIX}-${(nextId++).toString(36)}`;
}

/** The gateway's routes over `gateway`. */
export function createGatewayApp(gateway: Gateway): GatewayApp {
  const app = new Hono<GatewayEnv>();
  const isMcp = (path: string): boolean => path === '/mcp' || path.startsWith('/mcp/e/');

  app.use('*', async (c, next) => {
    const started = performance.now();
    const offered = c.req.header('x-request-id');
    const requestId = offered !== undefined && REQUEST_ID.test(offered) ? offered : newRequestId();
    c.set('requestId', requestId);
    c.set('user', undefined);
    c.set('scopes', undefined);
    await next();
    c.header('x-request-id', requestId);
    c.header('x-content-type-options', 'nosniff');
    // A page with forms keeps `same-origin` (set by its route): with no-referrer, browsers send `Origin: null` on its POSTs.
    if (!c.res.headers.has('referrer-policy')) c.header('referrer-policy', 'no-referrer');
    c.header('x-frame-options', 'DENY');
    const ms = performance.now() - started;
    const route = c.res.status === 404 && !isMcp(c.req.path) && !c.req.path.startsWith('/api/') ? 'unmatched' : routePath(c, -1);
    gateway.metrics.observeRequest(c.req.method, route, c.res.status, ms / 1000);
    gateway.logger.info('request', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(ms * 10) / 10,
      ...(c.get('user') === undefined ? {} : { user: c.get('user')?.name }),
    });
  });

  app.use('*', async (c, next) => {
    // Probes are exempt: they hold no data, and orchestrators call them by the pod's address.
    if (c.req.path === '/healthz' || c.req.path === '/readyz') return next();
    const refusal = gateway.hostCheck(c.req.raw);
    if (refusal !== undefined) {
      gateway.logger.warn('request refused by the Host/Origin check', { requestId: c.get('requestId'), host: c.req.header('host'), origin: c.req.header('origin') });
      return isMcp(c.req.path) ? mcpErrorResponse(refusal) : apiErrorResponse(refusal);
    }
    await next();
  });

  const requireToken = (options: { allowQueryToken?: boolean } = {}): MiddlewareHandler<GatewayEnv> => {
    return async (c, next) => {
      try {
        const caller = await gateway.authenticateCaller(c.req.raw, options);
        c.set('user', caller.user);
        c.set('scopes', caller.scopes);
      } catch (error) {
        const refusal = isMcp(c.req.path) ? mcpErrorResponse(error) : apiErrorResponse(error);
        // RFC 9728: the challenge says where to get a token (OAuth clients start their flow from it).
        // A refused DPoP proof or binding names its RFC 9449 error in a DPoP challenge first.
        if (gateway.oauth !== undefined && refusal.status === 401) {
          const dpop = dpopErrorOf(error);
          refusal.headers.set('www-authenticate', dpop === undefined ? gateway.oauth.challenge() : `${dpopChallenge(dpop)}, ${gateway.oauth.challenge()}`);
        }
        // An unauthenticated client keeps no connection: no body left to trickle in, no keep-alive to hold.
        refusal.headers.set('connection', 'close');
        return refusal;
      }
      await next();
    };
  };
  app.use('/mcp', requireToken());
  app.use('/mcp/e/*', requireToken());
  app.use('/metrics', requireToken());
  app.use('/api/events', requireToken({ allowQueryToken: true }));
  app.use('/api/*', async (c, next) => {
    if (c.req.path === '/api/events') return next();
    return requireToken()(c, next);
  });
  // An OAuth token's scopes are about /mcp: `mcp:read` lists tools there and does nothing else, so the
  // API and the metrics (the user's whole account) take only `mcp` (a static token has no scopes).
  const requireFullScope: MiddlewareHandler<GatewayEnv> = async (c, next) => {
    if (scopesAllow(c.get('scopes'), FULL_SCOPE)) return next();
    const refusal = apiErrorResponse(new SwitchboardError(ErrorCode.Forbidden, `this access token lacks the scope "${FULL_SCOPE}": a list-only token lists tools on /mcp and does nothing else`, { hint: `authorize again with the scope "${FULL_SCOPE}"` }));
    if (gateway.oauth !== undefined) refusal.headers.set('www-authenticate', gateway.oauth.challenge({ error: 'insufficient_scope', scope: FULL_SCOPE }));
    return refusal;
  };
  app.use('/metrics', requireFullScope);
  app.use('/api/*', requireFullScope);
  app.use('/api/*', async (c, next) => {
    if (gateway.shuttingDown) return apiErrorResponse(new SwitchboardError(ErrorCode.Unavailable, 'the gateway is shutting down'));
    c.header('cache-control', 'no-store');
    await next();
  });
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: gateway.maxBodyBytes,
      onError: () => apiErrorResponse(new SwitchboardError(ErrorCode.PayloadTooLarge, `the request body is over ${gateway.maxBodyBytes} bytes`)),
    }),
  );

  registerHealthRoutes(app, gateway);
  registerMetricsRoute(app, gateway);
  registerClusterRoute(app, gateway);
  registerMcpRoute(app, gateway);
  registerNamedMcpRoute(app, gateway);
  registerAccessRoutes(app, gateway);
  registerAccountRoutes(app, gateway);
  registerServerRoutes(app, gateway);
  registerTemplateRoutes(app, gateway);
  registerLoginRoutes(app, gateway);
  registerToolRoutes(app, gateway);
  registerToolSearchRoutes(app, gateway);
  registerTaskRoutes(app, gateway);
  registerEventsRoute(app, gateway);
  registerOAuthRoutes(app, gateway);
  registerDashboardRoutes(app);

  app.notFound((c) => apiErrorResponse(new SwitchboardError(ErrorCode.NotFound, `no route ${c.req.method} ${c.req.path}`)));
  app.onError((error, c) => {
    if (!isSwitchboardError(error)) {
      gateway.logger.error('request failed unexpectedly', { requestId: c.get('requestId'), path: c.req.path, error: error.stack ?? error.message });
    }
    return isMcp(c.req.path) ? mcpErrorResponse(error) : apiErrorResponse(error);
  });
  return app;
}
