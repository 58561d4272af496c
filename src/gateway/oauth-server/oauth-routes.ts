/**
 * @module gateway/oauth-server/oauth-routes
 * The HTTP surface of the gateway's OAuth server:
 * - `/.well-known/oauth-protected-resource` (and `…/mcp`, RFC 9728): where `/mcp` gets its tokens;
 * - `/.well-known/oauth-authorization-server` (RFC 8414) and `/.well-known/openid-configuration`;
 * - `/oauth/authorize`, `/oauth/token`, `/oauth/register`, `/oauth/jwks`, `/oauth/revoke`, … served by
 *   oidc-provider on the Node request itself (its body unread);
 * - `/oauth/consent/:uid`: our sign-in and consent pages, `…/login`, `…/allow`, `…/deny`;
 * - `GET /api/oauth/clients` (the caller's authorized clients; `?all=true` for an admin: everyone's) and
 *   `DELETE /api/oauth/clients/:grantId` (revokes the consent and every token made under it, at once).
 * Without an OAuth server on the gateway every one of these is 404.
 */

import { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { InteractionDetails } from 'oidc-provider';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp, type GatewayEnv } from '../gateway-app-types.js';
import { consentPage, loginPage, messagePage, type RenderedPage } from './consent-page.js';
import { IDP_CALLBACK_PATH, INTERACTION_PATH, OAUTH_ROUTES, OAuthServer } from './oauth-server.js';
import { registerIdentityProviderRoutes } from './identity-provider-routes.js';
import type { ProtectedResource } from './protected-resource.js';

/** Tells @hono/node-server that the Node response was written by someone else. */
function alreadySent(): Response {
  return new Response(null, { headers: { 'x-hono-already-sent': 'true' } });
}

export function nodeOf(c: Context<GatewayEnv>): { req: IncomingMessage; res: ServerResponse } {
  const env = c.env as { incoming?: unknown; outgoing?: unknown } | undefined;
  if (!(env?.incoming instanceof IncomingMessage) || !(env.outgoing instanceof ServerResponse)) {
    throw new SwitchboardError(ErrorCode.Unavailable, 'the OAuth endpoints are served only over HTTP (startGateway)');
  }
  return { req: env.incoming, res: env.outgoing };
}

/** The gateway's own authorization server (404 without one, also when tokens come from an external one). */
export function serverOf(gateway: Gateway): OAuthServer {
  const server = gateway.oauth;
  if (!(server instanceof OAuthServer)) throw new SwitchboardError(ErrorCode.NotFound, 'this gateway has no OAuth authorization server of its own', { hint: server === undefined ? 'it accepts static API tokens only' : 'its tokens come from the authorization server named in /.well-known/oauth-protected-resource' });
  return server;
}

function resourceOf(gateway: Gateway): ProtectedResource {
  const resource = gateway.oauth;
  if (resource === undefined) throw new SwitchboardError(ErrorCode.NotFound, 'this gateway accepts static API tokens only (no OAuth)');
  return resource;
}

export function render(c: Context<GatewayEnv>, page: RenderedPage, status: 200 | 400 | 401 | 403 = 200): Response | Promise<Response> {
  c.header('content-security-policy', page.csp);
  c.header('cache-control', 'no-store');
  // Not no-referrer: the forms' POSTs must carry this origin for the gateway's Origin check.
  c.header('referrer-policy', 'same-origin');
  return c.html(page.body, status);
}

/** Adds the OAuth routes (the `/api/oauth` ones behind the auth middleware, the others not). */
export function registerOAuthRoutes(app: GatewayApp, gateway: Gateway): void {
  const metadata = (c: Context<GatewayEnv>): Response => {
    const server = resourceOf(gateway);
    c.header('access-control-allow-origin', '*');
    c.header('cache-control', 'public, max-age=300');
    return c.json(server.protectedResourceMetadata());
  };
  app.get('/.well-known/oauth-protected-resource', metadata);
  app.get('/.well-known/oauth-protected-resource/mcp', metadata);

  const passThrough = async (c: Context<GatewayEnv>, rewriteTo?: string): Promise<Response> => {
    const server = serverOf(gateway);
    const { req, res } = nodeOf(c);
    if (rewriteTo !== undefined) req.url = rewriteTo;
    await server.handle(req, res);
    return alreadySent();
  };
  app.get('/.well-known/openid-configuration', (c) => passThrough(c));
  app.get('/.well-known/oauth-authorization-server', (c) => passThrough(c, '/.well-known/openid-configuration'));
  for (const path of Object.values(OAUTH_ROUTES)) {
    app.all(path, (c) => passThrough(c));
    app.all(`${path}/*`, (c) => passThrough(c));
  }

  app.get(`${INTERACTION_PATH}/:uid`, async (c) => {
    const server = serverOf(gateway);
    const { req, res } = nodeOf(c);
    const details = await interactionOf(server, req, res, c.req.param('uid'));
    if (details === undefined) return render(c, messagePage('This sign-in has expired', 'Start again from your MCP client.'), 400);
    const client = await server.provider.Client.find(String(details.params.client_id));
    const clientName = client?.clientName ?? String(details.params.client_id);
    if (details.prompt.name === 'login') return render(c, loginPage(details.uid, clientName, undefined, server.identityProvider?.label));
    const user = details.session === undefined ? undefined : await gateway.registry.users.find({ id: details.session.accountId });
    const redirect = String(details.params.redirect_uri ?? '');
    return render(
      c,
      consentPage(details.uid, {
        clientName,
        clientId: String(details.params.client_id),
        redirectHost: URL.canParse(redirect) ? (new URL(redirect).host || new URL(redirect).protocol) : redirect,
        scopes: String(details.params.scope ?? '').split(' ').filter((scope) => scope !== ''),
        user: user?.name ?? '?',
      }),
    );
  });

  app.post(`${INTERACTION_PATH}/:uid/login`, async (c) => {
    const server = serverOf(gateway);
    const { req, res } = nodeOf(c);
    const details = await interactionOf(server, req, res, c.req.param('uid'));
    if (details === undefined) return render(c, messagePage('This sign-in has expired', 'Start again from your MCP client.'), 400);
    const form = await c.req.parseBody();
    const token = typeof form.token === 'string' ? form.token.trim() : '';
    const user = token === '' ? undefined : await gateway.registry.tokens.verify(token);
    if (user === undefined) {
      const client = await server.provider.Client.find(String(details.params.client_id));
      gateway.logger.warn('an OAuth sign-in was refused: unknown gateway token', { requestId: c.get('requestId') });
      return render(c, loginPage(details.uid, client?.clientName ?? String(details.params.client_id), 'That token is unknown, expired or revoked.', server.identityProvider?.label), 401);
    }
    c.set('user', user);
    const returnTo = await server.provider.interactionResult(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
    return c.redirect(returnTo, 303);
  });

  registerIdentityProviderRoutes(app, gateway, { serverOf, nodeOf, render, interactionOf, callbackPath: IDP_CALLBACK_PATH });

  app.post(`${INTERACTION_PATH}/:uid/allow`, async (c) => {
    const server = serverOf(gateway);
    const { req, res } = nodeOf(c);
    const details = await interactionOf(server, req, res, c.req.param('uid'));
    if (details?.prompt.name !== 'consent' || details.session === undefined) return render(c, messagePage('This sign-in has expired', 'Start again from your MCP client.'), 400);
    const { provider } = server;
    const accountId = details.session.accountId;
    const clientId = String(details.params.client_id);
    const grant = (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope !== undefined) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims !== undefined) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
    const grantId = await grant.save();
    gateway.logger.info('an OAuth client was authorized', { requestId: c.get('requestId'), clientId, user: accountId });
    const returnTo = await provider.interactionResult(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    return c.redirect(returnTo, 303);
  });

  app.post(`${INTERACTION_PATH}/:uid/deny`, async (c) => {
    const server = serverOf(gateway);
    const { req, res } = nodeOf(c);
    const details = await interactionOf(server, req, res, c.req.param('uid'));
    if (details === undefined) return render(c, messagePage('This sign-in has expired', 'Start again from your MCP client.'), 400);
    const returnTo = await server.provider.interactionResult(req, res, { error: 'access_denied', error_description: 'the user denied access' }, { mergeWithLastSubmission: false });
    return c.redirect(returnTo, 303);
  });

  app.get('/api/oauth/clients', async (c) => {
    serverOf(gateway);
    const user = userOf(c);
    const all = c.req.query('all') === 'true';
    if (all && !user.isAdmin) throw new SwitchboardError(ErrorCode.Forbidden, 'only an administrator sees every user\'s authorized clients');
    const grants = await gateway.registry.oauthServer.grants(all ? undefined : user.id);
    const names = new Map((all ? await gateway.registry.users.list() : [user]).map((entry) => [entry.id, entry.name]));
    return c.json({ clients: grants.map((grant) => ({ ...grant, userName: names.get(grant.userId) ?? '?' })) });
  });

  app.delete('/api/oauth/clients/:grantId', async (c) => {
    serverOf(gateway);
    const user = userOf(c);
    await gateway.registry.oauthServer.revokeGrant(c.req.param('grantId'), user.isAdmin ? undefined : user.id);
    gateway.logger.info('an OAuth client was revoked', { requestId: c.get('requestId'), user: user.name });
    return c.body(null, 204);
  });
}

/** The interaction of this browser (its cookie) if it is `uid`, else undefined. */
export async function interactionOf(server: OAuthServer, req: IncomingMessage, res: ServerResponse, uid: string): Promise<InteractionDetails | undefined> {
  try {
    const details = await server.provider.interactionDetails(req, res);
    return details.uid === uid ? details : undefined;
  } catch {
    return undefined;
  }
}
