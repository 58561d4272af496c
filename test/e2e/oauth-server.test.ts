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

const missing = chromiumMissing();
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
async function connectWithOAuth(provider: MemoryOAuthClient, token: string): Promise<V1Client> {
  const first = new V1Client({ name: 'oauth-v1', version: '1' });
  await expect(first.connect(new V1HttpTransport(gateway.mcpUrl, { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  const authorization = provider.authorizations.at(-1);
  if (authorization === undefined) throw new Error('the SDK did not ask to open an authorization URL');
  const redirect = await authorizeInBrowser(browser.context, authorization, { token, redirectPrefix: provider.redirectUrl });
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
    const client = await connectWithOAuth(provider, alice.token);
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
