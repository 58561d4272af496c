/**
 * The gateway's own OAuth authorization server, end to end: real MCP clients that have no token
 * configured answer the gateway's 401 by discovering it (RFC 9728 → RFC 8414), registering
 * (RFC 7591), and sending Chromium to the real sign-in and consent pages; the code comes back with
 * PKCE, the token is bound to this gateway's /mcp, and the client then lists and calls tools as the
 * user who signed in — and only that user's servers.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { authorizeInBrowser } from '../helpers/oauth-browser.js';
import { KITCHEN_SINK } from '../helpers/fixtures.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MemoryOAuthClient } from '../helpers/memory-oauth-client.js';
import type { RegistryUser } from '../../src/registry/registry-types.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { auditAccessibility } from '../helpers/axe.js';
import { ROOT } from '../helpers/fixtures.js';
import { closePage } from '../helpers/close-page.js';
import { openLoginLink } from '../helpers/login-link.js';

const SHOTS = join(ROOT, 'test-results/oauth');
/** Screenshots of the sign-in and consent pages, each audited with axe-core (light and dark). */
const inaccessible: string[] = [];
async function shoot(step: string, page: Page): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${step}.png`), fullPage: true });
  inaccessible.push(...(await auditAccessibility(page, step)));
}

const missing = chromiumMissing();

/** How many stored access tokens of the gateway are DPoP-bound (their payload, not a secret: the id is hashed, carries `jkt`). */
async function boundAccessTokens(target: TestGateway): Promise<number> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(join(target.dir, 'switchboard.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare("SELECT payload FROM oauth_records WHERE model = 'AccessToken'").all() as Array<{ payload: string }>;
    return rows.filter((row) => typeof (JSON.parse(row.payload) as { jkt?: unknown }).jkt === 'string').length;
  } finally {
    db.close();
  }
}
const sinkEntry = (name: string, tool: string) => ({ command: process.execPath, args: [KITCHEN_SINK, '--name', name, '--tools', tool] });

let gateway: TestGateway;
let browser: Awaited<ReturnType<typeof launchChromium>>;
let alice: { user: RegistryUser; token: string };
let bob: { user: RegistryUser; token: string };

beforeAll(async () => {
  gateway = await startTestGateway();
  alice = await gateway.addUser('alice');
  bob = await gateway.addUser('bob');
  for (const [who, tool] of [[alice, 'alice_only'], [bob, 'bob_only']] as const) {
    await gateway.registry.users.setPolicy(who.user, { allowStdio: true });
    const response = await gateway.api('/api/servers', { token: who.token, body: { name: `${who.user.name}-sink`, entry: sinkEntry(who.user.name, tool) } });
    expect(response.status).toBe(201);
  }
  if (missing === undefined) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

/** Connects an SDK v1 client with only an authProvider; drives the browser when the SDK asks. */
async function connectWithOAuth(provider: MemoryOAuthClient, token: string, onPage?: (step: 'sign-in' | 'consent', page: Page) => Promise<void>): Promise<V1Client> {
  const first = new V1Client({ name: 'oauth-v1', version: '1' });
  await expect(first.connect(new V1HttpTransport(gateway.mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  const authorization = provider.authorizations.at(-1);
  if (authorization === undefined) throw new Error('the SDK did not ask to open an authorization URL');
  const redirect = await authorizeInBrowser(browser.context, authorization, { token, redirectPrefix: provider.redirectUrl, ...(onPage === undefined ? {} : { onPage }) });
  const code = redirect.url.searchParams.get('code');
  if (code === null) throw new Error(`no code in the redirect: ${redirect.url.search}`);
  const transport = new V1HttpTransport(gateway.mcpUrl, { authProvider: provider });
  await transport.finishAuth(code);
  const client = new V1Client({ name: 'oauth-v1', version: '1' });
  await client.connect(new V1HttpTransport(gateway.mcpUrl, { authProvider: provider }));
  return client;
}

describe.skipIf(missing !== undefined)('SDK v1 client with an authProvider', () => {
  test('completes the flow through the real consent page and works as the user who signed in', async () => {
    const provider = new MemoryOAuthClient('http://127.0.0.1:9/callback');
    const client = await connectWithOAuth(provider, alice.token, shoot);
    expect(inaccessible).toEqual([]);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('alice_only');
      expect(names).not.toContain('bob_only');
      expect(await client.callTool({ name: 'alice_only', arguments: { query: 'q' } })).toMatchObject({ content: [{ type: 'text', text: 'alice/alice_only: q' }] });
    } finally {
      await client.close();
    }
    // The token is an OAuth access token, not a gateway token, and it names alice.
    const access = provider.stored?.access_token ?? '';
    expect(access).not.toMatch(/^sb_/);
    const me = await gateway.api('/api/me', { token: access });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ user: { name: 'alice' } });

    // The dashboard lists the client for alice; "Revoke" ends its token at once.
    const page = await browser.context.newPage();
    try {
      await openLoginLink(page, gateway.url, alice.token);
      await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Clients' }).click();
      const row = page.getByRole('row', { name: /SDK v1 <test> client/ });
      await row.waitFor({ timeout: 10_000 });
      expect(await row.innerText()).toContain('127.0.0.1:9');
      await shoot('dashboard-clients', page);
      expect(inaccessible).toEqual([]);
      await page.getByRole('button', { name: 'Revoke SDK v1 <test> client' }).click();
      await page.getByText('You have not authorized any client yet.').waitFor({ timeout: 10_000 });
    } finally {
      await closePage(page);
    }
    expect((await gateway.api('/api/me', { token: access })).status).toBe(401);
  }, 60_000);
});

describe.skipIf(missing !== undefined)('SDK v2 client with an authProvider', () => {
  test('completes the flow and works as bob, who sees only his own servers', async () => {
    const { Client: V2Client, StreamableHTTPClientTransport: V2HttpTransport } = await import('@modelcontextprotocol/client');
    const provider = new MemoryOAuthClient('http://127.0.0.1:9/v2-callback');
    const first = new V2Client({ name: 'oauth-v2', version: '1' });
    // The v2 transport takes the same provider shape as v1.
    const authProvider = provider as unknown as ConstructorParameters<typeof V2HttpTransport>[1] extends infer O ? (O extends { authProvider?: infer P } ? P : never) : never;
    await expect(first.connect(new V2HttpTransport(gateway.mcpUrl, { authProvider }))).rejects.toThrow();
    const authorization = provider.authorizations.at(-1);
    if (authorization === undefined) throw new Error('the SDK v2 client did not ask to open an authorization URL');
    // Another person at this browser: alice's sign-in session (from the test before) must not carry over.
    await browser.context.clearCookies();
    const redirect = await authorizeInBrowser(browser.context, authorization, { token: bob.token, redirectPrefix: provider.redirectUrl });
    expect(redirect.consentText).toContain('as bob');
    expect(redirect.consentText).toContain('SDK v1 <test> client');
    expect(redirect.consentText).toContain('127.0.0.1:9');
    // The whole callback: v2 checks its `iss` (RFC 9207, which the gateway sends) and `state`.
    expect(redirect.url.searchParams.get('iss')).toBe(gateway.url);
    await new V2HttpTransport(gateway.mcpUrl, { authProvider }).finishAuth(redirect.url.searchParams);
    const client = new V2Client({ name: 'oauth-v2', version: '1' });
    await client.connect(new V2HttpTransport(gateway.mcpUrl, { authProvider }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names, names.join(',')).toContain('bob_only');
      expect(names).not.toContain('alice_only');
      expect(await client.callTool({ name: 'bob_only', arguments: { query: 'v2' } })).toMatchObject({ content: [{ type: 'text', text: 'bob/bob_only: v2' }] });
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe.skipIf(missing !== undefined)('switchboard login against its own gateway', () => {
  test('the CLI logs in through the consent page, then lists and calls tools as alice', async () => {
    const { spawn } = await import('node:child_process');
    const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join, resolve } = await import('node:path');
    const { ROOT } = await import('../helpers/fixtures.js');
    const cli = resolve(ROOT, 'bin/switchboard.js');
    const directory = await mkdtemp(join(tmpdir(), 'switchboard-gw-login-'));
    try {
      const config = join(directory, 'switchboard.json');
      await writeFile(config, JSON.stringify({ mcpServers: { gw: { url: gateway.mcpUrl.href } } }));
      const env = { ...process.env, SWITCHBOARD_HOME: join(directory, 'home'), SWITCHBOARD_SECRET_KEY: '', SWITCHBOARD_DB: '', NO_COLOR: '1' };
      const run = (args: string[], onStderr?: (text: string) => void) =>
        new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveRun, reject) => {
          const child = spawn(process.execPath, [cli, ...args], { env, cwd: directory, stdio: ['ignore', 'pipe', 'pipe'] });
          let stdout = '';
          let stderr = '';
          const timer = setTimeout(() => child.kill('SIGKILL'), 40_000);
          child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => {
            stderr += chunk.toString();
            onStderr?.(stderr);
          });
          child.once('error', reject);
          child.once('close', (code) => {
            clearTimeout(timer);
            resolveRun({ code, stdout, stderr });
          });
        });
      await browser.context.clearCookies();
      let browsed: Promise<unknown> | undefined;
      let clientId: string | null = null;
      const registeredBefore = await gateway.registry.oauthServer.countClientsSince(new Date(0));
      const login = await run(['login', 'gw', '--config', config, '--no-browser'], (stderr) => {
        const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)$/m.exec(stderr)?.[1];
        if (url === undefined || browsed !== undefined) return;
        clientId = new URL(url).searchParams.get('client_id');
        const redirectUri = new URL(url).searchParams.get('redirect_uri') ?? '';
        browsed = authorizeInBrowser(browser.context, url, { token: alice.token, redirectPrefix: redirectUri, passThrough: true });
      });
      expect(login.code, login.stderr).toBe(0);
      await browsed;
      expect(login.stdout).toMatch(/logged in to "gw"/);
      // Its own gateway: the pre-registered CLI client, no dynamic registration.
      expect(clientId).toBe('switchboard-cli');
      expect(await gateway.registry.oauthServer.countClientsSince(new Date(0))).toBe(registeredBefore);
      const tools = await run(['tools', '--config', config, '--json']);
      expect(tools.code, tools.stderr).toBe(0);
      const listed = JSON.parse(tools.stdout) as { tools: Array<{ name: string }> };
      const names = listed.tools.map((tool) => tool.name);
      expect(names).toContain('alice_only');
      expect(names).not.toContain('bob_only');
      const call = await run(['call', 'alice_only', '--args', '{"query":"cli"}', '--config', config]);
      expect(call.code, call.stderr).toBe(0);
      expect(call.stdout).toContain('alice/alice_only: cli');
      for (const output of [login, tools, call]) expect(output.stdout + output.stderr).not.toContain(alice.token);
      // The CLI asked for a DPoP-bound token (the gateway offers DPoP), so /mcp checked a proof on every request.
      expect(await boundAccessTokens(gateway)).toBeGreaterThan(0);
      // Nothing but our own lines: the SDK warns when a stored client lacks its issuer stamp (SEP-2352).
      for (const output of [login, tools, call]) expect(output.stderr).not.toContain('[mcp-sdk]');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  }, 90_000);
});

describe.skipIf(missing !== undefined)('mcp-remote (npm) driven by an SDK stdio client', () => {
  test('runs the OAuth flow against the gateway, bridges to stdio, and lists and calls tools as bob', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { resolve } = await import('node:path');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const { ROOT: root } = await import('../helpers/fixtures.js');
    const home = await mkdtemp(join(tmpdir(), 'switchboard-mcp-remote-'));
    await browser.context.clearCookies();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [resolve(root, 'node_modules/mcp-remote/dist/proxy.js'), gateway.mcpUrl.href, '--allow-http', '--host', '127.0.0.1'],
      env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: home, BROWSER: 'none', DISPLAY: '' },
      stderr: 'pipe',
    });
    let browsed: Promise<unknown> | undefined;
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+)/.exec(stderr)?.[1];
      if (url === undefined || browsed !== undefined) return;
      const redirectUri = new URL(url).searchParams.get('redirect_uri') ?? '';
      browsed = authorizeInBrowser(browser.context, url, { token: bob.token, redirectPrefix: redirectUri, passThrough: true, timeoutMs: 20_000 });
    });
    const client = new V1Client({ name: 'via-mcp-remote', version: '1' });
    try {
      await client.connect(transport);
      await browsed;
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names, stderr.slice(-2000)).toContain('bob_only');
      expect(names).not.toContain('alice_only');
      expect(await client.callTool({ name: 'bob_only', arguments: { query: 'remote' } })).toMatchObject({ content: [{ type: 'text', text: 'bob/bob_only: remote' }] });
      expect(stderr).not.toContain(bob.token);
    } finally {
      await client.close();
      await rm(home, { recursive: true, force: true });
    }
  }, 90_000);
});
