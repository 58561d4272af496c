/**
 * @module gateway/oauth-server/identity-provider-routes
 * The routes of a sign-in through the admin's OpenID provider: `POST /oauth/consent/:uid/idp` sends
 * the browser there (with a binding cookie), `GET /oauth/idp/callback` redeems what it sends back,
 * and `GET /oauth/consent/:uid/idp-done` (under the interaction's cookie path) resumes the
 * authorization as the user who signed in. Without a configured provider they are 404.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { InteractionDetails } from 'oidc-provider';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Gateway } from '../gateway.js';
import type { GatewayApp, GatewayEnv } from '../gateway-app-types.js';
import { messagePage, type RenderedPage } from './consent-page.js';
import { IDP_LOGIN_TIMEOUT_MS, type IdentityProviderLogin } from './identity-provider.js';
import { INTERACTION_PATH, type OAuthServer } from './oauth-server.js';

const BINDING_COOKIE = 'sb_idp_binding';

/** What the routes borrow from oauth-routes (passed in: no import cycle). */
export interface InteractionHelpers {
  serverOf(gateway: Gateway): OAuthServer;
  nodeOf(c: Context<GatewayEnv>): { req: IncomingMessage; res: ServerResponse };
  render(c: Context<GatewayEnv>, page: RenderedPage, status?: 200 | 400 | 401 | 403): Response | Promise<Response>;
  interactionOf(server: OAuthServer, req: IncomingMessage, res: ServerResponse, uid: string): Promise<InteractionDetails | undefined>;
  callbackPath: string;
}

/** Adds the identity-provider sign-in routes. */
export function registerIdentityProviderRoutes(app: GatewayApp, gateway: Gateway, helpers: InteractionHelpers): void {
  const idpOf = (server: OAuthServer): IdentityProviderLogin => {
    if (server.identityProvider === undefined) throw new SwitchboardError(ErrorCode.NotFound, 'this gateway has no identity provider configured');
    return server.identityProvider;
  };
  const failed = (c: Context<GatewayEnv>, error: unknown): Response | Promise<Response> => {
    const known = error instanceof SwitchboardError;
    const message = known ? `${error.message}${error.hint === undefined ? '' : ` — ${error.hint}`}` : 'the sign-in could not be completed';
    if (!known) gateway.logger.warn('a sign-in through the identity provider failed unexpectedly', { requestId: c.get('requestId'), error: error instanceof Error ? error.message : String(error) });
    return helpers.render(c, messagePage('The sign-in failed', message), known && error.code === ErrorCode.Forbidden ? 403 : 400);
  };

  app.post(`${INTERACTION_PATH}/:uid/idp`, async (c) => {
    const server = helpers.serverOf(gateway);
    const idp = idpOf(server);
    const { req, res } = helpers.nodeOf(c);
    const details = await helpers.interactionOf(server, req, res, c.req.param('uid'));
    if (details === undefined) return helpers.render(c, messagePage('This sign-in has expired', 'Start again from your MCP client.'), 400);
    try {
      const { url, binding } = await idp.start(details.uid);
      setCookie(c, BINDING_COOKIE, binding, { path: '/oauth', httpOnly: true, sameSite: 'Lax', secure: server.issuer.startsWith('https:'), maxAge: IDP_LOGIN_TIMEOUT_MS / 1000 });
      return c.redirect(url, 303);
    } catch (error) {
      return failed(c, error);
    }
  });

  app.get(helpers.callbackPath, async (c) => {
    const server = helpers.serverOf(gateway);
    const idp = idpOf(server);
    try {
      const { uid, ticket } = await idp.complete(new URL(c.req.url, server.issuer), getCookie(c, BINDING_COOKIE));
      return c.redirect(`${INTERACTION_PATH}/${uid}/idp-done?ticket=${encodeURIComponent(ticket)}`, 303);
    } catch (error) {
      return failed(c, error);
    }
  });

  app.get(`${INTERACTION_PATH}/:uid/idp-done`, async (c) => {
    const server = helpers.serverOf(gateway);
    const idp = idpOf(server);
    const { req, res } = helpers.nodeOf(c);
    const details = await helpers.interactionOf(server, req, res, c.req.param('uid'));
    const accountId = details === undefined ? undefined : idp.take(c.req.query('ticket') ?? '', details.uid, getCookie(c, BINDING_COOKIE));
    deleteCookie(c, BINDING_COOKIE, { path: '/oauth' });
    if (details === undefined || accountId === undefined) return helpers.render(c, messagePage('This sign-in has expired', 'Start again from your MCP client.'), 400);
    const returnTo = await server.provider.interactionResult(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
    return c.redirect(returnTo, 303);
  });
}
