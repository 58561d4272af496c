/**
 * A small real OpenID provider on 127.0.0.1 for the gateway's "sign in through your organisation"
 * tests: oidc-provider on a socket, whose sign-in page is replaced by one that signs in whoever the
 * test names ({@link TestOpenIdProvider.nextLogin}) and consents at once. The socket listens first
 * (its issuer URL is known before the gateway starts); {@link TestOpenIdProvider.accept} then names
 * the gateway's client and redirect URI.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { loadOidcProvider } from '../../src/gateway/oauth-server/load-oidc-provider.js';

/** The running provider. */
export interface TestOpenIdProvider {
  issuer: string;
  /** The e-mail (and subject) of the next person who signs in. */
  nextLogin: string;
  /** Registers the gateway as a client: public without `secret`, else `client_secret_post`. */
  accept(client: { clientId: string; redirectUri: string; secret?: string }): Promise<void>;
  close(): Promise<void>;
}

/** Starts the provider's socket on 127.0.0.1 (it answers 503 until {@link TestOpenIdProvider.accept}). */
export async function startTestOpenIdProvider(): Promise<TestOpenIdProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server: Server = createServer((req, res) => (handler === undefined ? res.writeHead(503).end() : handler(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const running: TestOpenIdProvider = {
    issuer,
    nextLogin: 'carol@example.com',
    async accept(client) {
      const { Provider } = await loadOidcProvider();
      const { privateKey } = await generateKeyPair('RS256', { extractable: true });
      const provider = new Provider(issuer, {
        clients: [{ client_id: client.clientId, redirect_uris: [client.redirectUri], grant_types: ['authorization_code'], response_types: ['code'], ...(client.secret === undefined ? { token_endpoint_auth_method: 'none' } : { client_secret: client.secret, token_endpoint_auth_method: 'client_secret_post' }) }],
        jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: 'idp', alg: 'RS256', use: 'sig' }] },
        claims: { openid: ['sub'], email: ['email', 'email_verified'] },
        findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, email: id, email_verified: true }) }),
        interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
        features: { devInteractions: { enabled: false } },
      });
      // The provider's own "sign-in page": signs in `nextLogin` and consents at once.
      provider.use(async (ctx, next) => {
        if (!ctx.path.startsWith('/interaction/')) return next();
        const koa = ctx as unknown as { req: IncomingMessage; res: ServerResponse; respond: boolean };
        koa.respond = false;
        const details = await provider.interactionDetails(koa.req, koa.res);
        if (details.prompt.name === 'login') return provider.interactionFinished(koa.req, koa.res, { login: { accountId: running.nextLogin } });
        const grant = new provider.Grant({ accountId: details.session?.accountId ?? running.nextLogin, clientId: String(details.params.client_id) });
        grant.addOIDCScope('openid email profile');
        return provider.interactionFinished(koa.req, koa.res, { consent: { grantId: await grant.save() } });
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return running;
}
