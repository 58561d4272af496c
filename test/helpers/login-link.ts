/**
 * The dashboard's login link in a browser test: the page asks whose account the link opens before it
 * signs in (a link carries whoever's token its sender put in it), so a test that means to sign in agrees.
 */
import type { Page } from 'playwright-core';

/** Opens the login link of `token` on the gateway at `url` and signs in as its user. */
export async function openLoginLink(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/#token=${token}`);
  await page.getByRole('button', { name: /^Sign in as / }).click();
}
