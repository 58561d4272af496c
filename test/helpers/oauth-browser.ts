/**
 * The browser half of an OAuth login against the gateway's own authorization server: Chromium opens
 * the authorization URL, signs in on the real sign-in page with a gateway token, clicks "Allow" (or
 * "Deny") on the real consent page, and the redirect back to the client is caught (the client's
 * loopback redirect URI is answered by the browser route, so no server listens there — unless
 * `passThrough`, for a client whose loopback server really waits).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { closePage, settlesWithin } from './close-page.js';

/** What the browser was sent back with. */
export interface BrowserRedirect {
  url: URL;
  /** The consent page as it was shown (text), for assertions on what it names. */
  consentText: string;
}

/** Drives one authorization in `context`; resolves with the redirect to `redirectPrefix`. */
export async function authorizeInBrowser(context: BrowserContext, authorizationUrl: string | URL, options: { token?: string; redirectPrefix: string; deny?: boolean; timeoutMs?: number; passThrough?: boolean; identityProvider?: boolean; onPage?: (step: 'sign-in' | 'consent', page: Page) => Promise<void> }): Promise<BrowserRedirect> {
  const timeout = options.timeoutMs ?? 10_000;
  let resolveRedirect!: (url: URL) => void;
  const redirected = new Promise<URL>((resolve) => (resolveRedirect = resolve));
  const pattern = `${options.redirectPrefix}**`;
  const onRequest = (request: { url(): string }): void => {
    if (request.url().startsWith(options.redirectPrefix)) resolveRedirect(new URL(request.url()));
  };
  context.on('request', onRequest);
  // A client that really listens there (the CLI's loopback server) gets the request; otherwise the browser answers it.
  if (options.passThrough !== true) await context.route(pattern, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>done</title><p>done</p>' }));
  const page: Page = await context.newPage();
  try {
    await page.goto(String(authorizationUrl), { timeout });
    let consentText = '';
    const signIn = page.locator('#signin');
    const allow = page.locator('#allow');
    await Promise.race([signIn.waitFor({ timeout }), allow.waitFor({ timeout })]);
    if (options.identityProvider === true) {
      // Through the admin's identity provider: its pages (if any) are its own; back at the gateway comes consent.
      await options.onPage?.('sign-in', page);
      await page.click('#idp');
    } else if (await signIn.isVisible()) {
      if (options.token === undefined) throw new Error('the sign-in page was shown but no token was given');
      await options.onPage?.('sign-in', page);
      await page.fill('#token', options.token);
      await page.click('#signin button[type=submit]');
    }
    const consent = await Promise.race([allow.waitFor({ timeout }).then(() => 'consent' as const), redirected.then(() => 'done' as const)]);
    if (consent === 'consent') {
      consentText = await page.locator('main').innerText();
      await options.onPage?.('consent', page);
      await page.click(options.deny === true ? '#deny' : '#allow');
    }
    if (!(await settlesWithin(redirected, timeout))) throw new Error('no redirect back to the client');
    return { url: await redirected, consentText };
  } catch (error) {
    // Where the browser got stuck, for the failure message.
    const text = await page.locator('body').innerText().catch(() => '(no page)');
    throw new Error(`${error instanceof Error ? error.message.split('\n')[0] : String(error)} — the browser is at ${page.url()}: ${text.slice(0, 500)}`);
  } finally {
    context.off('request', onRequest);
    if (options.passThrough !== true) await context.unroute(pattern);
    // The redirect was seen as it started; closing before it commits can hang (see close-page.ts).
    await closePage(page, { arrivedAt: options.redirectPrefix });
  }
}
