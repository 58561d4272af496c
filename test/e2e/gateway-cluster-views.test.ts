/**
 * Cluster-wide views end to end (issue 20, "Done when" 5): three replicas of the built `switchboard
 * serve` on one PostgreSQL database behind a real HAProxy (round-robin, no stickiness).
 * 1. The dashboard's Activity page, opened on replica A in Chromium, shows a call made through replica
 *    C, marked with C's replica id (A's own events carry A's).
 * 2. `/api/stats` on B adds up the calls made on A, on C and through HAProxy, and says it covers 3
 *    replicas; so does the dashboard's Metrics page on A.
 * 3. Every sample of each replica's `/metrics` carries that replica's id as its `replica` label.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { haproxyMissing } from '../helpers/haproxy.js';
import { startViewsCluster, type ViewsCluster } from '../helpers/cluster-views.js';
import { waitFor } from '../helpers/processes.js';
import { postgresUnavailableReason } from '../helpers/registry-backends.js';
import { openLoginLink } from '../helpers/login-link.js';

const reason = process.env.CI === 'true' ? undefined : ((await postgresUnavailableReason()) ?? haproxyMissing() ?? chromiumMissing());

interface EchoStats {
  replicas?: number;
  servers: Array<{ server: string; tools: Array<{ tool: string; calls: number }> }>;
}

describe.skipIf(reason !== undefined)(`cluster-wide views on three replicas${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let cluster: ViewsCluster;
  let browser: { context: BrowserContext; close: () => Promise<void> } | undefined;
  let page: Page;
  const problems: string[] = [];

  const replica = (index: number): { url: string; id: string } => {
    const url = cluster.replicas[index]?.url;
    const id = cluster.ids[index];
    if (url === undefined || id === undefined) throw new Error(`no replica ${index}`);
    return { url, id };
  };
  /** One `echo` call through `base` (a replica or HAProxy) as tess. */
  const echo = async (base: string, message: string): Promise<void> => {
    const response = await fetch(`${base}/api/tools/echo/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cluster.userToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { message } }),
      signal: AbortSignal.timeout(20_000),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const adminGet = async (url: string): Promise<Response> => fetch(url, { headers: { authorization: `Bearer ${cluster.adminToken}` }, signal: AbortSignal.timeout(10_000) });

  beforeAll(async () => {
    const [started, launched] = await Promise.all([startViewsCluster(), launchChromium()]);
    cluster = started;
    browser = launched;
    browser.context.setDefaultTimeout(10_000);
    page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 120_000);

  afterAll(async () => {
    try {
      await browser?.close();
    } finally {
      await cluster?.close();
    }
  }, 60_000);

  test('Activity opened on replica A shows a call made through replica C, marked with C', async () => {
    const a = replica(0);
    const c = replica(2);
    await openLoginLink(page, a.url, cluster.userToken);
    await page.locator('article[data-server="sink"]').getByText('ready', { exact: true }).waitFor({ timeout: 20_000 });
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Activity' }).click();
    // C hears that someone watches tess on A (A announces it when its first stream opens).
    await waitFor(async () => ((await (await adminGet(`${c.url}/api/cluster`)).json()) as { watchedElsewhere?: number }).watchedElsewhere === 1, 10_000, 'replica C to know tess is watched on A');
    await echo(c.url, 'through C');
    let answered = performance.now();
    const remote = page.locator('tr[data-event="tool-call-end"]', { hasText: `echo — ok · replica ${c.id.slice(0, 8)}` });
    await remote.waitFor();
    const delays = [Math.round(performance.now() - answered)];
    expect(await remote.locator('td').nth(2).textContent()).toBe('sink');
    // Once C's servers are up: how long from C's answer to the line on A.
    await echo(c.url, 'through C again');
    answered = performance.now();
    await expect.poll(() => remote.count(), { timeout: 10_000, interval: 20 }).toBe(2);
    delays.push(Math.round(performance.now() - answered));
    console.log(`a call through C on A's Activity page, ms after C answered: ${delays.join(', ')}`);
    // A's own call is marked with A.
    await echo(a.url, 'through A');
    await page.locator('tr[data-event="tool-call-end"]', { hasText: `echo — ok · replica ${a.id.slice(0, 8)}` }).waitFor();
    expect(problems).toEqual([]);
  }, 60_000);

  test('/api/stats on B (and the Metrics page on A) adds up the calls made on A, on C and through HAProxy, over 3 replicas', async () => {
    const [a, b, c] = [replica(0), replica(1), replica(2)];
    const calls = async (): Promise<{ echo: number; replicas: number | undefined }> => {
      const response = await fetch(`${b.url}/api/stats`, { headers: { authorization: `Bearer ${cluster.userToken}` }, signal: AbortSignal.timeout(10_000) });
      expect(response.status).toBe(200);
      const stats = (await response.json()) as EchoStats;
      const echoCalls = stats.servers.find((server) => server.server === 'sink')?.tools.find((tool) => tool.tool === 'echo')?.calls ?? 0;
      return { echo: echoCalls, replicas: stats.replicas };
    };
    // The first test made two calls on C and one on A.
    await echo(a.url, 'on A');
    await echo(c.url, 'on C');
    for (let index = 0; index < 6; index++) await echo(cluster.haproxy.url, `through HAProxy ${index}`);
    const expected = 2 + 3 + 6;
    // Other replicas' numbers are written at heartbeat cadence (2 s).
    const started = performance.now();
    await waitFor(async () => (await calls()).echo === expected, 10_000, `B's /api/stats to count ${expected} echo calls`);
    console.log(`B's /api/stats counted every call ${Math.round(performance.now() - started)} ms after the last one`);
    expect(await calls()).toEqual({ echo: expected, replicas: 3 });
    // The dashboard on A adds up the same.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Metrics' }).click();
    await expect.poll(() => page.getByTestId('metrics-replicas').textContent(), { timeout: 10_000 }).toBe('Added up over 3 gateway replicas.');
    const row = page.getByRole('table', { name: 'Totals per tool' }).getByRole('row', { name: /sink\/echo/ });
    await expect.poll(() => row.locator('td').first().textContent(), { timeout: 10_000 }).toBe(String(expected));
    expect(problems).toEqual([]);
  }, 60_000);

  test("every sample of each replica's /metrics carries its replica label", async () => {
    for (const [index] of cluster.replicas.entries()) {
      const { url, id } = replica(index);
      const text = await (await adminGet(`${url}/metrics`)).text();
      const samples = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
      expect(samples.length).toBeGreaterThan(10);
      const unlabelled = samples.filter((line) => !line.includes(`replica="${id}"`));
      expect(unlabelled, `samples of replica ${index + 1} without replica="${id}"`).toEqual([]);
      expect(text).toMatch(/^switchboard_http_requests_total\{method="GET",route="[^"]*",status="200",replica="[^"]+"\} \d+/m);
    }
  }, 30_000);
});
