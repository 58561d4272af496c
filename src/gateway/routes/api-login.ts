/**
 * @module gateway/routes/api-login
 * OAuth logins from the dashboard. `POST /api/servers/:name/login` starts one for the requesting user
 * and answers `{ status: 'authorize', authorizationUrl }` (open it in the browser) or
 * `{ status: 'done' }` (stored tokens were enough), with an HttpOnly cookie that binds the login to
 * this browser. The authorization server sends the browser back to `GET /oauth/callback` — no bearer
 * token there (it is a browser navigation): the `state` of the redirect finds the login, the cookie
 * proves it is the same browser, and the tokens go to that user's encrypted secrets; the user's
 * server is then tried again at once. The page says how it ended and holds no data.
 */

import type { LoginResponse } from '../../contract/api-contract.js';
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { LOGIN_TIMEOUT_MS } from '../../login/run-login.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import { type RegistryUser, userLoginTarget } from '../../registry/index.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp, type GatewayEnv } from '../gateway-app-types.js';
import { bindingCookieName } from '../oauth-logins.js';
import { TenantDisclosure } from '../../pool/index.js';
import { routeCallbackToOwner } from '../oauth-callback-hop.js';

const CALLBACK_PATH = '/oauth/callback';

/** Adds the login routes (`/api/servers/:name/login` behind the auth middleware; `/oauth/callback` not). */
export function registerLoginRoutes(app: GatewayApp, gateway: Gateway): void {
  app.post('/api/servers/:name/login', async (c) => {
    const user = userOf(c);
    const name = c.req.param('name');
    const userConfig = await gateway.registry.configForUser({ id: user.id });
    // A registry server of that name wins over the config file's, as in the user's client.
    const spec = userConfig.config.servers.find((server) => server.name === name) ?? gateway.sharedServers.find((server) => server.name === name);
    if (spec === undefined) throw new SwitchboardError(ErrorCode.NotFound, `you have no server "${name}"`);
    if (spec.type !== 'http') throw new SwitchboardError(ErrorCode.InvalidArgument, `server "${name}" is started as a process; logins are for remote (URL) servers`);
    if (!gateway.logins.hasRoom(user.id)) throw new SwitchboardError(ErrorCode.LimitExceeded, 'too many of your logins are waiting for their browser', { hint: 'finish or abandon one (they expire after 5 minutes)' });
    // A shared server's URL (its credentials) stays out of what a tenant is told about a failed login.
    const disclosure = TenantDisclosure.of({ ...userConfig, config: { ...userConfig.config, servers: userConfig.config.servers.some((server) => server.name === name) ? userConfig.config.servers : [spec] } });
    const target = await userLoginTarget(gateway.registry, user, userConfig, spec, gateway.logger).catch((error: unknown) => Promise.reject(disclosure.error(error, name)));
    const binding = randomBytes(24).toString('base64url');
    const start = await gateway.logins.start(
      user.id,
      binding,
      { spec, store: target.store, fetch: target.fetch, redirectUrl: new URL(CALLBACK_PATH, c.req.url).href, logger: gateway.logger, force: true },
      async (outcome) => {
        await target.close();
        if (outcome.error === undefined) await retryServer(gateway, user, name);
        else gateway.logger.warn('a login from the dashboard failed', { user: user.name, server: name, code: outcome.error.code });
      },
    ).catch((error: unknown) => Promise.reject(disclosure.error(error, name)));
    if (start.status === 'done') return c.json({ status: 'done' } satisfies LoginResponse);
    // Lax: the browser brings it back on the authorization server's top-level redirect, and on nothing cross-site else.
    setCookie(c, bindingCookieName(start.state), binding, {
      path: CALLBACK_PATH,
      httpOnly: true,
      sameSite: 'Lax',
      secure: new URL(c.req.url).protocol === 'https:',
      maxAge: LOGIN_TIMEOUT_MS / 1000,
    });
    return c.json({ status: 'authorize', authorizationUrl: start.authorizationUrl } satisfies LoginResponse);
  });

  app.get(CALLBACK_PATH, async (c) => {
    // In a cluster the login may be held by another replica: the redirect goes there (or says it was interrupted).
    const routed = await routeCallbackToOwner(c.req.raw, gateway.hop);
    if (routed.kind === 'answer') return routed.response;
    if (routed.kind === 'refused') return page(c, routed.status, 'The login failed', routed.message);
    try {
      const outcome = await gateway.logins.complete(new URL(c.req.url), (state) => {
        const name = bindingCookieName(state);
        const value = getCookie(c, name);
        deleteCookie(c, name, { path: CALLBACK_PATH });
        return value;
      });
      if (outcome.error !== undefined) return page(c, 400, 'The login failed', `${outcome.error.message}${outcome.error.hint === undefined ? '' : ` — ${outcome.error.hint}`}`);
      return page(c, 200, 'Logged in', `You are logged in to “${outcome.server}”. You can close this tab.`);
    } catch (error) {
      const message = error instanceof SwitchboardError ? `${error.message}${error.hint === undefined ? '' : ` — ${error.hint}`}` : 'the login could not be completed';
      const status = error instanceof SwitchboardError && error.code === ErrorCode.NotFound ? 404 : error instanceof SwitchboardError && error.code === ErrorCode.Forbidden ? 403 : 400;
      return page(c, status, 'The login failed', message);
    }
  });
}

/** The user's server, tried again now that tokens are stored (when the user has a client). */
async function retryServer(gateway: Gateway, user: RegistryUser, name: string): Promise<void> {
  if (gateway.shuttingDown) return;
  const lease = await gateway.lease(user);
  try {
    await lease.client.retryServer(name);
  } finally {
    lease.release();
  }
}

function page(c: Context<GatewayEnv>, status: 200 | 400 | 403 | 404 | 503, title: string, message: string): Response | Promise<Response> {
  c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'");
  c.header('cache-control', 'no-store');
  // hono's html template escapes every interpolated value.
  return c.html(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title} — Switchboard</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem}</style></head><body><main><h1>${title}</h1><p>${message}</p></main></body></html>`,
    status,
  );
}
