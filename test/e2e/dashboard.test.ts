/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the real
 * gateway (`switchboard serve`, built CLI) with the kitchen-sink fixture as a shared server: the
 * one-time login link asks whose account it opens, then signs in and leaves the address bar (more in
 * dashboard-login-link.test.ts); the demo server is ready; a tool that
 * returns an image shows a loaded <img>; a tool's form marks missing arguments, and every kind of
 * result and a tool error render; the call appears in Activity; Metrics counts it; a call refused before
 * sending shows in Activity, in Metrics' Refused column and on its server's card; an admin adds a
 * stdio server (a validation message first), sees its tools, and removes it (the question keeps the
 * keyboard focus); a foreign token is refused and the sign-in page says so; a tenant sees the shared
 * server read-only and is told the policy refuses a local command. Every page is screenshotted to
 * test-results/dashboard/ and audited with axe-core (WCAG 2.0/2.1 A and AA, light and dark colour
 * scheme): any violation fails the test; so does any console error or page error (the few a step
 * expects, such as the 401 of a refused token, are listed by that step).
 *
 * UPDATE_DASHBOARD_SCREENSHOT=1 also writes docs/dashboard.png (the README's picture).
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { auditAccessibility } from '../helpers/axe.js';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { closeBrowserAndGateway } from '../helpers/close-browser-and-gateway.js';
import { startOAuthProtectedServer } from '../fixtures/servers/oauth-protected-server.mjs';
import { KITCHEN_SINK, ROOT } from '../helpers/fixtures.js';
import { newToken, startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process.js';
import { runCli } from '../helpers/run-cli.js';
import { closePage } from '../helpers/close-page.js';

const SHOTS = join(ROOT, 'test-results/dashboard');
// Code that runs in the page is passed as strings: this file is type-checked without the DOM library.
const missing = chromiumMissing();
// On CI the browser must be there (.ci/run installs it): a missing one fails instead of skipping.
const skip = missing !== undefined && process.env.CI !== 'true';

describe.skipIf(skip)(`dashboard in Chromium${skip ? ` (skipped: ${missing})` : ''}`, () => {
  let dir: string;
  let gateway: GatewayProcess;
  let browser: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  const problems: string[] = [];
  /** Console errors the current step causes on purpose (matched by substring), cleared after each test. */
  let expected: string[] = [];
  /** axe-core's findings; checked after each test, so that one finding does not cut a test's steps short. */
  const inaccessible: string[] = [];

  /** Every state worth a screenshot is also worth an accessibility audit. */
  const shot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
    inaccessible.push(...(await auditAccessibility(page, name)));
  };
  const db = (): string => join(dir, 'registry.db');
  const nav = (name: string) => page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'switchboard-dashboard-'));
    const config = join(dir, 'switchboard.json');
    writeFileSync(config, JSON.stringify({ mcpServers: { demo: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'demo'] } } }));
    const [started, launched] = await Promise.all([startGatewayProcess({ config, db: db(), cwd: dir }), launchChromium()]);
    gateway = started;
    browser = launched;
    // Fail a step within seconds, not at the test's deadline, and say which element was missing.
    browser.context.setDefaultTimeout(10_000);
    page = await browser.context.newPage();
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const text = message.text();
      if (!expected.some((fragment) => text.includes(fragment))) problems.push(`console error: ${text}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }, 60_000);

  afterEach(() => {
    expected = [];
    const found = problems.splice(0);
    const violations = inaccessible.splice(0);
    expect(found, 'console or page errors').toEqual([]);
    if (violations.length > 0) throw new Error(`Accessibility violations (axe-core):\n${violations.join('\n')}`);
  });

  afterAll(() => closeBrowserAndGateway(browser, gateway, dir), 30_000);

  test('a foreign token is refused, and the sign-in page says so', async () => {
    expected = ['401'];
    await page.goto(`${gateway.url}/`);
    await page.getByLabel('Gateway token').fill(newToken('foreign'));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The gateway refused this token');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await shot('sign-in-refused');
  });

  test('the login link first asks whose account it opens (nothing stored yet), then signs in, leaves the address bar, and the demo server is ready', async () => {
    await page.goto(`${gateway.url}/#token=${gateway.token}`);
    await page.getByRole('heading', { name: 'Sign in as admin?' }).waitFor();
    expect(page.url()).toBe(`${gateway.url}/#/servers`);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    // The safe answer has the focus: Enter on a page one did not expect does not sign in.
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('Do not sign in');
    await shot('login-link');
    await page.getByRole('button', { name: 'Sign in as admin' }).click();
    const demo = page.locator('article[data-server="demo"]');
    await demo.getByText('ready', { exact: true }).waitFor();
    expect(page.url()).toBe(`${gateway.url}/#/servers`);
    expect(await page.evaluate("sessionStorage.getItem('switchboard.token')")).toBe(gateway.token);
    await expect.poll(() => demo.locator('dd').allTextContents()).toContain('stdio');
    await expect.poll(() => page.getByText('Live', { exact: true }).isVisible()).toBe(true);
    await shot('servers');
  });

  test('a tool that returns an image shows it, with the call’s duration', async () => {
    await nav('Tools').click();
    await page.getByLabel('Search tools').fill('image');
    // The server's name is shown beside each tool; the description does not repeat it as `[demo]`.
    const description = await page.locator('.tools .tool-description').first().textContent();
    expect(description).not.toContain('[demo]');
    await page.getByRole('link', { name: /^image\b/ }).click();
    await page.getByRole('button', { name: 'Run image' }).click();
    const image = page.locator('.result img');
    await image.waitFor();
    await expect.poll(() => page.evaluate("document.querySelector('.result img').complete ? document.querySelector('.result img').naturalWidth : 0")).toBeGreaterThan(0);
    expect(await page.locator('#result-title').textContent()).toMatch(/Result in \d/);
    await shot('tools');
  });

  test('a running call shows the server’s progress until its result arrives', async () => {
    await page.getByLabel('Search tools').fill('sleep');
    await page.getByRole('link', { name: /^sleep\b/ }).click();
    await page.locator('#arg-sleep-ms').fill('1500');
    await page.getByRole('button', { name: 'Run sleep' }).click();
    // sleep(1500) reports 30 steps of 50 ms: the bar moves while the call runs.
    const bar = page.getByRole('progressbar', { name: 'Progress' });
    await expect.poll(async () => Number(await bar.getAttribute('value').catch(() => null)), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await bar.getAttribute('max')).toBe('30');
    await shot('tool-progress');
    await expect.poll(() => page.locator('.result').textContent(), { timeout: 10_000 }).toContain('slept 1500 ms');
    expect(await bar.count()).toBe(0);
    // Cancelling while it runs stops the stream and says so.
    await page.locator('#arg-sleep-ms').fill('20000');
    await page.getByRole('button', { name: 'Run sleep' }).click();
    await expect.poll(async () => Number(await bar.getAttribute('value').catch(() => null)), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('cancelled');
    expect(await bar.count()).toBe(0);
    await page.getByRole('button', { name: 'Run sleep' }).waitFor();
    // The gateway cancelled the upstream call too: it ended long before its 20 s.
    await nav('Activity').click();
    await page.locator('tr[data-event="tool-call-end"]', { hasText: 'sleep — failed (REQUEST_CANCELLED)' }).waitFor();
    await nav('Tools').click();
  });

  test('a tool’s form marks the missing arguments; results of every kind and a tool error are shown', async () => {
    const open = async (name: string): Promise<void> => {
      await page.getByLabel('Search tools').fill(name);
      await page.getByRole('link', { name: new RegExp(`^${name}\\b`) }).click();
      await page.getByRole('button', { name: `Run ${name}` }).waitFor();
    };
    await open('add');
    await page.getByRole('button', { name: 'Run add' }).click();
    // Both numbers are required: each is marked invalid with its message, checked before any call.
    await expect.poll(() => page.locator('#arg-add-a').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#arg-add-b').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field-error').count()).toBe(2);
    await shot('tools-form-invalid');

    await open('mixed');
    await page.getByRole('button', { name: 'Run mixed' }).click();
    await page.locator('.result audio').waitFor();
    expect(await page.locator('.result .part').count()).toBe(6);
    await shot('tools-mixed-result');

    await open('fail');
    await page.getByRole('button', { name: 'Run fail' }).click();
    await page.locator('.result-error').waitFor();
    expect(await page.locator('#result-title').textContent()).toContain('The tool reported an error');
    await shot('tools-error-result');
  });

  test('the call appears in Activity', async () => {
    await nav('Activity').click();
    const row = page.locator('tr[data-event="tool-call-end"]', { hasText: 'image — ok' });
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('demo');
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: /^Resume/ }).click();
    await shot('activity');
  });

  test('a call refused before sending appears in Activity, and Metrics and the server card count it as refused', async () => {
    await nav('Activity').click();
    const response = await fetch(`${gateway.url}/api/tools/add/call`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ arguments: { a: 1 } }),
    });
    expect(response.status).toBe(400);
    await page.locator('tr[data-event="tool-call-refused"]', { hasText: 'add — refused (INVALID_ARGUMENT), not sent' }).waitFor();
    await nav('Metrics').click();
    const row = page.getByRole('table', { name: 'Totals per tool' }).getByRole('row', { name: /demo\/add/ });
    // Calls, errors, refused; a call never sent has no latency.
    await expect.poll(() => row.locator('td').allTextContents()).toEqual(['1', '1', '1', '100 %', '–', '–', '–', '0']);
    expect(await row.locator('td').nth(2).getAttribute('title')).toBe('refused before sending: INVALID_ARGUMENT × 1');
    await shot('metrics-refused');
    // The server's card counts it too.
    await nav('Servers').click();
    const refused = page.locator('article[data-server="demo"] .facts div', { hasText: 'Refused' }).locator('dd');
    await expect.poll(() => refused.textContent()).toBe('1');
    expect(await refused.getAttribute('title')).toBe('refused before sending: INVALID_ARGUMENT × 1');
  });

  test('Metrics counts the call per server and per tool', async () => {
    await nav('Metrics').click();
    const serverRow = page.getByRole('table', { name: /Totals per server/ }).getByRole('row', { name: /^demo/ });
    await expect.poll(async () => Number(await serverRow.locator('td').first().textContent())).toBeGreaterThanOrEqual(1);
    await page.getByRole('table', { name: 'Totals per tool' }).getByRole('row', { name: /demo\/image/ }).waitFor();
    expect(await page.locator('.chart svg').count()).toBeGreaterThanOrEqual(4);
    await shot('metrics');
  });

  test('an admin adds a stdio server, sees its tools, and removes it', async () => {
    await nav('Servers').click();
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    await dialog.getByLabel(/^Name/).fill('extra');
    await dialog.getByLabel('Local command').check();
    // The gateway checks the entry with the config-file rules and says what is wrong.
    expected = ['400'];
    await dialog.getByLabel('JSON entry').check();
    await dialog.getByLabel('Entry (as in a config file)').fill(JSON.stringify({ command: process.execPath, include: 'not-a-list' }));
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('include');
    await shot('server-form-invalid');

    await dialog.getByLabel('Local command').check();
    await dialog.getByLabel(/^Command/).fill(process.execPath);
    await dialog.getByLabel('Arguments (one per line)').fill([KITCHEN_SINK, '--name', 'extra', '--tools', 'alpha_tool'].join('\n'));
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = page.locator('article[data-server="extra"]');
    await card.getByText('ready', { exact: true }).waitFor();
    await shot('servers-added');

    await card.getByRole('link', { name: /tools? of extra$/ }).click();
    await page.getByRole('link', { name: /^alpha_tool\b/ }).waitFor();
    expect(await page.getByLabel('Server', { exact: true }).inputValue()).toBe('extra');
    await shot('tools-of-added-server');

    await nav('Servers').click();
    // Keyboard users keep their place: the question takes the focus, and Keep it gives it back.
    await card.getByRole('button', { name: 'Remove extra' }).click();
    await expect.poll(() => page.evaluate('document.activeElement.textContent')).toBe('Keep it');
    await shot('server-remove-confirm');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate("document.activeElement.getAttribute('aria-label')")).toBe('Remove extra');
    // Asked again, from the keyboard this time.
    await page.keyboard.press('Enter');
    await card.getByRole('button', { name: 'Yes, remove' }).click();
    await card.waitFor({ state: 'detached' });
    const listed = await fetch(`${gateway.url}/api/servers`, { headers: { authorization: `Bearer ${gateway.token}` } }).then((response) => response.json() as Promise<{ servers: Array<{ name: string }> }>);
    expect(listed.servers.map((server) => server.name)).toEqual(['demo']);
    if (process.env.UPDATE_DASHBOARD_SCREENSHOT === '1') {
      await page.setViewportSize({ width: 1280, height: 720 });
      await nav('Tools').click();
      await page.getByRole('link', { name: /^mixed\b/ }).click();
      await page.getByRole('button', { name: 'Run mixed' }).click();
      await page.locator('.result img').waitFor();
      await page.evaluate('window.scrollTo(0, 0)');
      await page.screenshot({ path: join(SHOTS, 'readme.png') });
      copyFileSync(join(SHOTS, 'readme.png'), join(ROOT, 'docs/dashboard.png'));
    }
  });
  test('a tenant sees shared servers read-only, and the policy’s refusal of a local command', async () => {
    // A second user, made with the CLI on the same registry while the gateway runs.
    const cli = (...args: string[]) => runCli([...args, '--db', db()], { cwd: dir, env: { HOME: dir } });
    expect((await cli('users', 'add', 'bob')).code).toBe(0);
    const created = await cli('token', 'create', '--user', 'bob', '--json');
    expect(created.code, created.stderr).toBe(0);
    const { token } = JSON.parse(created.stdout) as { token: string };

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Gateway token').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const demo = page.locator('article[data-server="demo"]');
    await demo.getByText('ready', { exact: true }).waitFor();
    expect(await page.locator('.top-bar .user').textContent()).toBe('bob');
    expect(await demo.getByRole('button').count()).toBe(0);

    expected = ['403'];
    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    await dialog.getByLabel(/^Name/).fill('mine');
    await dialog.getByLabel('Local command').check();
    await dialog.getByLabel(/^Command/).fill(process.execPath);
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('stdio');
    await dialog.getByText('The gateway’s policy refused this server').waitFor();
    await shot('tenant-policy-refusal');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  test('a tenant picks an administrator’s template, fills in its typed parameters, and sees its tools', async () => {
    // Made with the CLI on the same registry while the gateway runs; bob (the previous test) is signed in.
    const definition = {
      description: 'A demo server with the tools you name.',
      command: process.execPath,
      args: [KITCHEN_SINK, '--name', '{{label}}', '--tools', '{{tools}}'],
      parameters: [
        { name: 'label', type: 'string', pattern: '[a-z0-9-]{1,20}', description: 'Shown as the server’s name in its tools.' },
        { name: 'tools', type: 'enum', values: ['notes_tool', 'other_tool'] },
      ],
    };
    const added = await runCli(['templates', 'add', 'notes', '--definition', JSON.stringify(definition), '--db', db()], { cwd: dir, env: { HOME: dir } });
    expect(added.code, added.stderr).toBe(0);
    expect(await page.locator('.top-bar .user').textContent()).toBe('bob');

    await page.getByRole('button', { name: 'Add server' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a server' });
    await dialog.getByLabel(/^Name/).fill('notes');
    await dialog.getByLabel('Template', { exact: true }).check();
    const picker = dialog.getByRole('combobox', { name: /^Template/ });
    await picker.selectOption('notes');
    await dialog.getByText('A demo server with the tools you name.').waitFor();
    await dialog.getByRole('textbox', { name: /^label/ }).fill('bobs-notes');
    await dialog.getByRole('combobox', { name: /^tools/ }).selectOption('notes_tool');
    await shot('template-form');
    await dialog.getByRole('button', { name: 'Add server' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = page.locator('article[data-server="notes"]');
    await card.getByText('ready', { exact: true }).waitFor();

    await card.getByRole('link', { name: /tools? of notes$/ }).click();
    await page.getByRole('link', { name: /^notes_tool\b/ }).waitFor();
    await page.getByRole('link', { name: /^notes_tool\b/ }).click();
    await page.getByRole('button', { name: 'Run notes_tool' }).click();
    // The kitchen sink's extra tools answer "<server name>/<tool>: …": the parameter reached the command line.
    await expect.poll(() => page.locator('.result').textContent()).toContain('bobs-notes/notes_tool');
  });

  test('a server that needs an OAuth login offers it on its card; the login runs in a new tab and the server connects', async () => {
    // A real authorization server and protected MCP server (it approves at once), shared by the admin.
    const fixture = await startOAuthProtectedServer();
    try {
      const added = await runCli(['servers', 'add', 'remote', '--shared', '--url', fixture.url, '--db', db()], { cwd: dir, env: { HOME: dir } });
      expect(added.code, added.stderr).toBe(0);
      await nav('Servers').click();
      const card = page.locator('article[data-server="remote"]');
      await card.getByText('SERVER_UNAUTHORIZED').waitFor();
      await shot('login-needed');
      const [tab] = await Promise.all([browser.context.waitForEvent('page'), card.getByRole('button', { name: 'Log in to remote' }).click()]);
      // The tab went to the authorization server and came back to the gateway's callback page.
      await tab.getByText('You are logged in to “remote”').waitFor();
      expect(new URL(tab.url()).pathname).toBe('/oauth/callback');
      await closePage(tab);
      await card.getByText('ready', { exact: true }).waitFor();
      expect(fixture.log.authorizations).toHaveLength(1);
    } finally {
      await fixture.close();
    }
  });
});
