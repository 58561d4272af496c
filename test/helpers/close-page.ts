/**
 * Closes a Chromium page without hanging the test. Chromium can acknowledge a close that races a
 * navigation commit and then drop it (crbug.com/536385539, microsoft/playwright#42366): page.close()
 * then never settles. Seen here with Debian's Chromium 156: 45 of 150 closes issued as a cross-origin
 * redirect started never settled; none did once the page had arrived, and asking again through the
 * page's own session closed every dropped one. A CI run lost the CLI login test to this.
 */
import type { Page } from 'playwright-core';

/** Closes `page`, first letting it arrive at `arrivedAt` (a URL prefix) when a redirect there is under way. */
export async function closePage(page: Page, options: { arrivedAt?: string; timeoutMs?: number } = {}): Promise<void> {
  if (page.isClosed()) return;
  const timeout = options.timeoutMs ?? 5_000;
  if (options.arrivedAt !== undefined) await page.waitForURL(`${options.arrivedAt}**`, { timeout }).catch(() => undefined);
  const closed = new Promise<void>((resolve) => page.once('close', () => resolve()));
  void page.close().catch(() => undefined);
  if (await settlesWithin(closed, timeout)) return;
  // The close was dropped: ask again through the page's session (Page.close instead of Target.closeTarget).
  await page.close({ runBeforeUnload: true }).catch(() => undefined);
  if (!(await settlesWithin(closed, timeout))) throw new Error(`Chromium did not close the page at ${page.url()} (asked twice, ${timeout} ms each)`);
}

/** Whether `promise` settles within `ms`; the timer never outlives the answer. */
export async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true, () => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
