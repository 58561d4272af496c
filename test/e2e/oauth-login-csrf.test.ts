/**
 * Login CSRF on the gateway's authorization server, in Chromium: another web site sends the browser to
 * `/oauth/authorize?…#token=<the attacker's own gateway token>`. The fragment survives the redirect to
 * the sign-in page; if that page signed in with it, the browser would hold a 14-day authorization
 * session of the attacker's account, and the victim's next MCP client would be handed a token of the
 * attacker's account (its calls and their arguments going to the attacker's servers). The sign-in page
 * takes no token from the URL: it stays at the form, and no session is set.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { closePage } from '../helpers/close-page.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { pkcePair, registerClient } from '../helpers/oauth-flow.js';

const missing = chromiumMissing();

describe.skipIf(missing !== undefined)(`a token in the authorization URL's fragment signs nobody in${missing === undefined ? '' : ` (skipped: ${missing})`}`, () => {
  let gateway: TestGateway;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let mallory: { token: string };
  const ATTACKER = 'https://attacker.test';

  beforeAll(async () => {
    gateway = await startTestGateway();
    mallory = await gateway.addUser('mallory');
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await gateway?.close();
  });

  test('an attacker page planting its own token stays at the sign-in form and leaves no session', async () => {
    const client = String(((await (await registerClient(gateway.url, { client_name: 'Mallory tool', redirect_uris: [`${ATTACKER}/cb`] })).json()) as { client_id: string }).client_id);
    const query = new URLSearchParams({ response_type: 'code', client_id: client, redirect_uri: `${ATTACKER}/cb`, scope: 'mcp', state: 's', code_challenge: pkcePair().challenge, code_challenge_method: 'S256', resource: `${gateway.url}/mcp` });
    const planted = `${gateway.url}/oauth/authorize?${query}#token=${encodeURIComponent(mallory.token)}`;
    await browser.context.route(`${ATTACKER}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: `<!doctype html><script>location.href=${JSON.stringify(planted)}</script>` }));
    const page = await browser.context.newPage();
    try {
      await page.goto(`${ATTACKER}/`);
      // The page asks an open dashboard tab (there is none) and then waits for a person: the form stays.
      await page.locator('#signin[data-asked="none"]').waitFor({ timeout: 15_000 });
      expect(page.url()).toMatch(/\/oauth\/consent\/[^/]+$/);
      expect(await page.locator('#allow').count()).toBe(0);
      expect(await page.locator('main').innerText()).not.toContain('mallory');
      expect((await browser.context.cookies(gateway.url)).map((cookie) => cookie.name)).not.toContain('sb_oauth_session');
    } finally {
      await closePage(page);
    }
  });
});
