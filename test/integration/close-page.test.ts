/**
 * The page-closing helper the browser tests use, against the Chromium race it exists for: a page is
 * closed just as a cross-origin redirect to a second loopback server starts (what the OAuth tests do
 * when the client's redirect URI is requested). A bare page.close() does not settle for a good share
 * of these (crbug.com/536385539); the helper must close every one, with or without waiting for arrival.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { closePage } from '../helpers/close-page.js';

const missing = chromiumMissing();
let browser: Awaited<ReturnType<typeof launchChromium>>;
let origin: Server;
let callback: Server;

function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
const base = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

beforeAll(async () => {
  callback = await listen((_request, response) => response.writeHead(200, { 'content-type': 'text/html', connection: 'close' }).end('<p>received</p>'));
  origin = await listen((request, response) => {
    if (request.url === '/go') response.writeHead(302, { location: `${base(callback)}/callback?code=c` }).end();
    else response.writeHead(200, { 'content-type': 'text/html' }).end('<p>consent</p>');
  });
  if (missing === undefined) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const server of [origin, callback]) await new Promise((resolve) => server?.close(resolve));
});

/** Closes `rounds` pages, each as its redirect to the callback server is requested; counts those closed and those that had arrived. */
async function closeAsRedirectStarts(rounds: number, close: (page: import('playwright-core').Page, prefix: string) => Promise<void>): Promise<{ closed: number; arrived: number }> {
  const prefix = `${base(callback)}/callback`;
  let closed = 0;
  let arrived = 0;
  for (let round = 0; round < rounds; round++) {
    const page = await browser.context.newPage();
    await page.goto(`${base(origin)}/`);
    const requested = new Promise<void>((resolve) => {
      const onRequest = (request: { url(): string }): void => {
        if (!request.url().startsWith(prefix)) return;
        browser.context.off('request', onRequest);
        resolve();
      };
      browser.context.on('request', onRequest);
    });
    // Navigated by the page itself, as the consent form's submit is.
    void page.evaluate((url) => ((globalThis as unknown as { location: { href: string } }).location.href = url), `${base(origin)}/go`).catch(() => undefined);
    await requested;
    await close(page, prefix);
    if (page.isClosed()) closed++;
    if (page.url().startsWith(prefix)) arrived++;
  }
  return { closed, arrived };
}

describe.skipIf(missing !== undefined)('closePage', () => {
  test('closes every page whose close races the redirect commit, asking again when Chromium dropped it', async () => {
    expect((await closeAsRedirectStarts(20, (page) => closePage(page, { timeoutMs: 1_000 }))).closed).toBe(20);
  }, 90_000);

  test('closes every page once it has arrived at the redirect', async () => {
    expect(await closeAsRedirectStarts(20, (page, prefix) => closePage(page, { arrivedAt: prefix, timeoutMs: 1_000 }))).toEqual({ closed: 20, arrived: 20 });
  }, 90_000);
});
