/**
 * The dashboard's login link (`#token=…`) in a real browser (Debian's Chromium) against a real
 * gateway: a link carries whoever's token its sender put in it, so the page names the account the
 * link opens and signs in only when the person agrees (login CSRF). In a signed-in tab the person
 * can stay as they are; a link whose token is refused, or revoked before the answer, says why and
 * leaves the tab's session and stored token as they were; a page loaded afresh with a link names who
 * the tab is signed in as. Each state is audited with axe-core.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { auditAccessibility } from '../helpers/axe.js';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { newToken } from '../helpers/gateway-process.js';

const missing = chromiumMissing();
// On CI the browser must be there (.ci/run installs it): a missing one fails instead of skipping.
const skip = missing !== undefined && process.env.CI !== 'true';

describe.skipIf(skip)(`the dashboard's login link in Chromium${skip ? ` (skipped: ${missing})` : ''}`, () => {
  let gateway: TestGateway;
  let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;
  let bob: { token: string };
  const problems: string[] = [];
  /** Console errors the current step causes on purpose (the 401 of a refused token), cleared after each test. */
  let expected: string[] = [];
  const inaccessible: string[] = [];
  const stored = (): Promise<unknown> => page.evaluate("sessionStorage.getItem('switchboard.token')");
  const user = (): Promise<string | null> => page.locator('.top-bar .user').textContent();

  beforeAll(async () => {
    [gateway, browser] = await Promise.all([startTestGateway(), launchChromium()]);
    browser.context.setDefaultTimeout(10_000);
    bob = await gateway.addUser('bob');
    page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !expected.some((fragment) => message.text().includes(fragment))) problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 60_000);

  afterEach(() => {
    expected = [];
    expect(problems.splice(0), 'console or page errors').toEqual([]);
    const violations = inaccessible.splice(0);
    if (violations.length > 0) throw new Error(`Accessibility violations (axe-core):\n${violations.join('\n')}`);
  });

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await gateway?.close();
    }
  }, 30_000);

  test('a link asks whose account it opens and stores nothing until the person agrees; the safe answer has the focus', async () => {
    await page.goto(`${gateway.url}/#token=${bob.token}`);
    await page.getByRole('heading', { name: 'Sign in as bob?' }).waitFor();
    expect(page.url()).toBe(`${gateway.url}/#/servers`);
    expect(await stored()).toBeNull();
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Do not sign in');
    inaccessible.push(...(await auditAccessibility(page, 'login-link-question')));
    await page.getByRole('button', { name: 'Sign in as bob' }).click();
    await expect.poll(user).toBe('bob');
    expect(await stored()).toBe(bob.token);
  });

  test("the administrator's link in bob's tab: staying keeps the tab as it was", async () => {
    await page.goto(`${gateway.url}/#token=${gateway.adminToken}`);
    await page.getByRole('heading', { name: 'Sign in as admin?' }).waitFor();
    await page.getByText('This tab is signed in as bob now.').waitFor();
    await page.getByText('an administrator', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Stay signed in as bob' }).click();
    await expect.poll(user).toBe('bob');
    expect(await stored()).toBe(bob.token);
    expect(page.url()).toBe(`${gateway.url}/#/servers`);
  });

  test('a link whose token is refused, in a signed-in tab, says why and leaves the tab as it was', async () => {
    expected = ['401'];
    await page.goto(`${gateway.url}/#token=${newToken('foreign')}`);
    await page.getByRole('heading', { name: 'This login link cannot sign you in' }).waitFor();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The gateway refused this token');
    inaccessible.push(...(await auditAccessibility(page, 'login-link-refused')));
    await page.getByRole('button', { name: 'Back to the dashboard as bob' }).click();
    await expect.poll(user).toBe('bob');
    expect(await stored()).toBe(bob.token);
  });

  test('a page loaded afresh with a link names who the tab is signed in as; a link revoked before the answer leaves the tab as it was', async () => {
    const carol = await gateway.addUser('carol');
    // A new document in the same tab (its session storage kept), opened by the link.
    await page.goto('about:blank');
    await page.goto(`${gateway.url}/#token=${carol.token}`);
    await page.getByRole('heading', { name: 'Sign in as carol?' }).waitFor();
    await page.getByText('This tab is signed in as bob now.').waitFor();
    // carol's token is revoked while the question is open: agreeing then fails, and bob's session stays.
    await gateway.registry.tokens.revoke('carol', carol.token.slice(3, 15));
    await expect.poll(async () => (await fetch(`${gateway.url}/api/me`, { headers: { authorization: `Bearer ${carol.token}` } })).status, { timeout: 10_000 }).toBe(401);
    expected = ['401'];
    await page.getByRole('button', { name: 'Sign in as carol' }).click();
    await page.getByRole('heading', { name: 'This login link cannot sign you in' }).waitFor();
    expect(await stored()).toBe(bob.token);
    await page.getByRole('button', { name: 'Back to the dashboard as bob' }).click();
    await expect.poll(user).toBe('bob');
  });
});
