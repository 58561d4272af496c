/**
 * A dashboard session open in the browser signs its user in on the gateway's authorization page: the
 * MCP client opens the authorization URL in a new tab (whose sessionStorage is empty), the page asks
 * on the same-origin BroadcastChannel, the open dashboard tab answers, and the consent page comes at
 * once, for the dashboard's user. Without an open dashboard tab the sign-in form is shown. Needs the
 * built dashboard (`npm run build`).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { pkcePair, registerClient, tokenRequest } from '../helpers/oauth-flow.js';
import { closePage } from '../helpers/close-page.js';
import { openLoginLink } from '../helpers/login-link.js';

const missing = chromiumMissing();
const REDIRECT = 'http://127.0.0.1:9/dashboard-session-callback';
let gateway: TestGateway;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let alice: { token: string };
let clientId: string;

beforeAll(async () => {
  gateway = await startTestGateway();
  alice = await gateway.addUser('alice');
  const registered = (await (await registerClient(gateway.url, { client_name: 'Session carry-over client', redirect_uris: [REDIRECT] })).json()) as { client_id: string };
  clientId = registered.client_id;
  if (missing === undefined) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

function authorizationUrl(): { url: string; verifier: string } {
  const pkce = pkcePair();
  const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'mcp', state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource: `${gateway.url}/mcp` });
  return { url: `${gateway.url}/oauth/authorize?${query}`, verifier: pkce.verifier };
}

describe.skipIf(missing !== undefined)('a dashboard session carries over to the authorization page', () => {
  test('with a dashboard tab open (signed in as alice), a new tab goes straight to consent as alice; the code is alice\'s', async () => {
    await browser.context.clearCookies();
    const dashboard = await browser.context.newPage();
    await openLoginLink(dashboard, gateway.url, alice.token);
    // A function, not a string: a string is eval'd on each poll, which the dashboard's CSP (no unsafe-eval) refuses.
    await dashboard.waitForFunction(() => (globalThis as unknown as { sessionStorage: { getItem(key: string): string | null } }).sessionStorage.getItem('switchboard.token') !== null, undefined, { timeout: 10_000 });
    let redirected: URL | undefined;
    await browser.context.route(`${REDIRECT}**`, async (route) => {
      redirected = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>done</title>' });
    });
    const start = authorizationUrl();
    const page = await browser.context.newPage();
    try {
      await page.goto(start.url);
      // No token typed: the consent page comes, naming the dashboard's user.
      await page.locator('#allow').waitFor({ timeout: 10_000 });
      expect(await page.locator('main').innerText()).toContain('as alice');
      await page.click('#allow');
      await page.waitForURL(`${REDIRECT}**`, { timeout: 10_000 });
    } finally {
      await closePage(page);
      await browser.context.unroute(`${REDIRECT}**`);
    }
    const answer = await tokenRequest(gateway.url, { grant_type: 'authorization_code', code: redirected?.searchParams.get('code') ?? '', code_verifier: start.verifier, client_id: clientId, redirect_uri: REDIRECT, resource: `${gateway.url}/mcp` });
    expect(answer.status).toBe(200);
    expect(await (await gateway.api('/api/me', { token: String(answer.body.access_token) })).json()).toMatchObject({ user: { name: 'alice' } });

    // Once the dashboard tab is closed (and the authorization server's own session cookie is gone), the sign-in form is back.
    await closePage(dashboard);
    await browser.context.clearCookies();
    const again = await browser.context.newPage();
    try {
      await again.goto(authorizationUrl().url);
      // The page marks the end of its ask (3 s without an answer): still the sign-in form then.
      await again.locator('#signin[data-asked="none"]').waitFor({ timeout: 10_000 });
      expect(await again.locator('#allow').count()).toBe(0);
      expect(await again.locator('#token').isVisible()).toBe(true);
    } finally {
      await closePage(again);
    }
  }, 60_000);
});
