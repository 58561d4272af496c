/**
 * The dashboard's Tools page and tool search, in Chromium against the real gateway (`switchboard
 * serve`, built CLI) with server-filesystem and server-memory: a search in words is ranked by the
 * gateway's tool index (words that appear in no tool name or description as typed still find the
 * tool), and the user switches their /mcp endpoint to search_tools + call_tool, which an MCP client
 * then sees.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { auditAccessibility } from '../helpers/axe.js';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { closeBrowserAndGateway } from '../helpers/close-browser-and-gateway.js';
import { bin } from '../helpers/fixtures.js';
import { connectV1 } from '../helpers/gateway.js';
import { startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.js';
import { openLoginLink } from '../helpers/login-link.js';

const missing = chromiumMissing();
const skip = missing !== undefined && process.env.CI !== 'true';

describe.skipIf(skip)(`dashboard tool search${skip ? ` (skipped: ${missing})` : ''}`, () => {
  let dir: string;
  let gateway: GatewayProcess;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'switchboard-dash-search-'));
    const config = join(dir, 'switchboard.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { files: { command: bin('mcp-server-filesystem'), args: [dir] }, memory: { command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } } } }));
    const [started, launched] = await Promise.all([startGatewayProcess({ config, db: join(dir, 'registry.db'), cwd: dir, timeoutMs: 60_000 }), launchChromium()]);
    gateway = started;
    browser = launched;
    browser.context.setDefaultTimeout(10_000);
    page = await browser.context.newPage();
    page.on('console', (message) => (message.type() === 'error' ? problems.push(`console error: ${message.text()}`) : undefined));
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 90_000);

  afterAll(() => closeBrowserAndGateway(browser, gateway, dir), 30_000);

  const rows = () => page.locator('ul.tools > li');

  test('a search in words is ranked by the tool index; the user switches /mcp to search_tools + call_tool', async () => {
    await openLoginLink(page, gateway.url, gateway.token);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Tools' }).click();
    await rows().first().waitFor({ timeout: 10_000 });
    // "rename a file" is in no name or description as typed: only the index finds move_file.
    await page.getByLabel('Search tools').fill('rename a file');
    await expect.poll(async () => (await rows().first().textContent()) ?? '', { timeout: 5_000 }).toContain('move_file');
    await page.getByLabel('Search tools').fill('remove an entity');
    await expect.poll(async () => (await rows().first().textContent()) ?? '', { timeout: 5_000 }).toContain('delete_entities');

    const state = page.getByTestId('tool-search-state');
    await expect.poll(() => state.textContent(), { timeout: 5_000 }).toContain('Not in force');
    await page.getByLabel('Tool search for MCP clients').selectOption('on');
    await expect.poll(() => state.textContent(), { timeout: 5_000 }).toContain('In force: clients see search_tools and call_tool');
    const client = await connectV1(new URL(`${gateway.url}/mcp`), gateway.token);
    try {
      await expect.poll(async () => (await client.listTools()).tools.map((tool) => tool.name), { timeout: 10_000 }).toEqual(['search_tools', 'call_tool']);
    } finally {
      await client.close();
    }
    await page.getByLabel('Tool search for MCP clients').selectOption('off');
    await expect.poll(() => state.textContent(), { timeout: 5_000 }).toContain('Not in force');
    expect(await auditAccessibility(page, 'tools-search')).toEqual([]);
    expect(problems).toEqual([]);
  }, 90_000);
});
