/**
 * Signing in on the gateway's authorization page through the admin's OpenID provider (openid-client
 * on the gateway's side). The provider is a small real one on a socket — oidc-provider, whose
 * sign-in page is replaced by one that signs in whoever the test names — and Chromium clicks the
 * gateway's button, comes back, and allows the client on the real consent page. Allowed people are
 * matched to (or created as) registry users by their e-mail; others are refused.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../../helpers/chromium.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { authorizeInBrowser } from '../../helpers/oauth-browser.js';
import { pkcePair, registerClient, tokenRequest } from '../../helpers/oauth-flow.js';
import { startTestOpenIdProvider, type TestOpenIdProvider } from '../../helpers/test-openid-provider.js';
import { closePage } from '../../helpers/close-page.js';

const missing = chromiumMissing();
const REDIRECT = 'http://127.0.0.1:9/idp-test-callback';
let idp: TestOpenIdProvider;
let gateway: TestGateway;
let browser: Awaited<ReturnType<typeof launchChromium>>;

beforeAll(async () => {
  idp = await startTestOpenIdProvider();
  gateway = await startTestGateway({ oauth: { identityProvider: { issuer: idp.issuer, clientId: 'switchboard', allow: ['@example.com'], createUsers: true, label: 'Sign in with Example SSO' } } });
  await idp.accept({ clientId: 'switchboard', redirectUri: `${gateway.url}/oauth/idp/callback` });
  if (missing === undefined) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await idp?.close();
});

async function authorizationUrl(): Promise<{ url: string; clientId: string; verifier: string }> {
  const registered = (await (await registerClient(gateway.url, { client_name: 'IdP test client', redirect_uris: [REDIRECT] })).json()) as { client_id: string };
  const pkce = pkcePair();
  const query = new URLSearchParams({ response_type: 'code', client_id: registered.client_id, redirect_uri: REDIRECT, scope: 'mcp', state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource: `${gateway.url}/mcp` });
  return { url: `${gateway.url}/oauth/authorize?${query}`, clientId: registered.client_id, verifier: pkce.verifier };
}

describe.skipIf(missing !== undefined)('sign-in through an external OpenID provider', () => {
  test('an allowed person is created as a user at first sign-in, consents, and the token is theirs', async () => {
    idp.nextLogin = 'carol@example.com';
    await browser.context.clearCookies();
    const start = await authorizationUrl();
    const redirect = await authorizeInBrowser(browser.context, start.url, { identityProvider: true, redirectPrefix: REDIRECT });
    expect(redirect.consentText).toContain('as carol@example.com');
    const answer = await tokenRequest(gateway.url, { grant_type: 'authorization_code', code: redirect.url.searchParams.get('code') ?? '', code_verifier: start.verifier, client_id: start.clientId, redirect_uri: REDIRECT, resource: `${gateway.url}/mcp` });
    expect(answer.status).toBe(200);
    expect(await (await gateway.api('/api/me', { token: String(answer.body.access_token) })).json()).toMatchObject({ user: { name: 'carol@example.com' } });
    expect(await gateway.registry.users.find('carol@example.com')).toBeDefined();
  }, 60_000);

  test('a person off the allow-list is refused and no user is created', async () => {
    idp.nextLogin = 'mallory@evil.example';
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    try {
      await page.goto((await authorizationUrl()).url);
      await page.click('#idp');
      await page.getByText('may not use this gateway').waitFor({ timeout: 10_000 });
    } finally {
      await closePage(page);
    }
    expect(await gateway.registry.users.find('mallory@evil.example')).toBeUndefined();
  }, 60_000);
});
