/**
 * Icons and MCP Apps in the dashboard, in Chromium against the real gateway (`switchboard serve`,
 * built CLI) with the app server (app-server.mjs) shared: the tool list shows the tool's icon (the
 * embedded one, loaded), and so does the servers page for the server's own icon; the tool's page offers its app, whose HTML (a `ui://` resource the server
 * never lists) renders, its script running, in a frame sandboxed to scripts only — an opaque origin
 * that cannot reach the dashboard — from a one-time URL that serves it under a policy allowing no
 * network; the URL does not serve twice. A 3 s task started by an MCP client shows among the
 * running tasks on the servers page until it completes. The pages pass the axe-core audit.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditAccessibility } from '../helpers/axe.js';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { closeBrowserAndGateway } from '../helpers/close-browser-and-gateway.js';
import { FIXTURES } from '../helpers/fixtures.js';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.js';
import { connectV1 } from '../helpers/gateway.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { openLoginLink } from '../helpers/login-link.js';

const missing = chromiumMissing();
const skip = missing !== undefined && process.env.CI !== 'true';

describe.skipIf(skip)(`dashboard: icons and MCP Apps${skip ? ` (skipped: ${missing})` : ''}`, () => {
  let dir: string;
  let gateway: GatewayProcess;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchboard-apps-'));
    const config = join(dir, 'switchboard.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          weather: { command: process.execPath, args: [join(FIXTURES, 'app-server.mjs')] },
          tasks: { command: process.execPath, args: [join(FIXTURES, 'task-server.mjs'), '--state', join(dir, 'tasks.json')] },
        },
      }),
    );
    const [started, launched] = await Promise.all([startGatewayProcess({ config, db: join(dir, 'registry.db'), cwd: dir }), launchChromium()]);
    gateway = started;
    browser = launched;
    browser.context.setDefaultTimeout(10_000);
    // The fixture's https: icon points at a host that need not exist; nothing else may fail.
    await browser.context.route('https://example.com/**', (route) => route.fulfill({ status: 404, body: '' }));
    page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('404')) problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 60_000);

  afterAll(() => closeBrowserAndGateway(browser, gateway, dir), 30_000);

  test("the tool's icon shows in the list, and its app renders sandboxed", async () => {
    await openLoginLink(page, gateway.url, gateway.token);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tools' }).click();
    const link = page.getByRole('link', { name: /show_weather/ });
    const icon = link.locator('img.tool-icon');
    await icon.waitFor();
    expect(await icon.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    await expect.poll(() => icon.evaluate((image: { complete: boolean; naturalWidth: number }) => (image.complete ? image.naturalWidth : 0))).toBeGreaterThan(0);

    await link.click();
    await page.getByRole('button', { name: 'Show the app' }).click();
    const frame = page.locator('iframe.app-frame');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    expect(await frame.getAttribute('title')).toBe('App of show_weather');
    const content = page.frameLocator('iframe.app-frame');
    await expect.poll(() => content.locator('#forecast').textContent()).toBe('Sunny');
    // The app's own script ran (it may run scripts, nothing else).
    await expect.poll(() => content.locator('#forecast').getAttribute('data-script')).toBe('ran');
    // An opaque origin: the app cannot read the dashboard, its storage or its token.
    // Code that runs in the frame sees its own globals (this file is type-checked without the DOM library).
    type FrameGlobals = { parent: { document: { title: string } }; sessionStorage: { getItem(key: string): string | null } };
    const reach = await content.locator('body').evaluate(() => {
      try {
        return String((globalThis as unknown as FrameGlobals).parent.document.title);
      } catch {
        return 'blocked';
      }
    });
    expect(reach).toBe('blocked');
    const storage = await content.locator('body').evaluate(() => {
      try {
        return String((globalThis as unknown as FrameGlobals).sessionStorage.getItem('switchboard.token'));
      } catch {
        return 'blocked';
      }
    });
    expect(storage).toBe('blocked');
    const used = await fetch(`${gateway.url}${await frame.getAttribute('src')}`);
    expect(used.status).toBe(404);
    expect(await auditAccessibility(page, 'tool-app')).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  test("the servers page shows a server's icon: the embedded one, loaded without a referrer", async () => {
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Servers' }).click();
    const icon = page.getByRole('article', { name: 'weather' }).locator('img.tool-icon');
    await icon.waitFor({ timeout: 10_000 });
    expect(await icon.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await icon.getAttribute('referrerpolicy')).toBe('no-referrer');
    await expect.poll(() => icon.evaluate((image: { complete: boolean; naturalWidth: number }) => (image.complete ? image.naturalWidth : 0))).toBeGreaterThan(0);
    expect(await page.getByRole('article', { name: 'tasks' }).locator('img.tool-icon').count()).toBe(0);
  }, 60_000);

  test('a running task shows on the servers page until it completes', async () => {
    const client = await connectV1(new URL(`${gateway.url}/mcp`), gateway.token);
    try {
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Servers' }).click();
      const section = page.getByRole('region', { name: 'Running tasks' });
      await section.getByText('No task is running.').waitFor();
      const created = await client.request({ method: 'tools/call', params: { name: 'report', arguments: { ms: 3_000 }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
      expect(created.task.status).toBe('working');
      const row = section.locator('tbody tr');
      await expect.poll(() => row.count(), { timeout: 5_000 }).toBe(1);
      expect(await row.locator('td').allTextContents()).toEqual(['tasks', expect.any(String), 'working', expect.any(String)]);
      expect(await auditAccessibility(page, 'running-tasks')).toEqual([]);
      await section.getByText('No task is running.').waitFor({ timeout: 10_000 });
      expect(problems).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
