/**
 * OAuth logins started from the gateway, against a real authorization server and protected MCP
 * server: a shared server that needs a login fails for each user with SERVER_UNAUTHORIZED; a user
 * starts a login over the API, the browser (played by the test: the authorization server approves at
 * once) comes back to the gateway's /oauth/callback, the tokens go to that user's encrypted secrets,
 * and the server is ready at once — for that user only. The redirect must come back to the browser that
 * started the login (an HttpOnly cookie binds them). Unknown or replayed states, unknown servers and
 * stdio servers are refused.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { startOAuthProtectedServer, type OAuthFixture } from '../../fixtures/servers/oauth-protected-server.mjs';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let gateway: TestGateway;
let fixture: OAuthFixture;
let alice: { user: RegistryUser; token: string };
let bob: { user: RegistryUser; token: string };

beforeAll(async () => {
  fixture = await startOAuthProtectedServer();
  gateway = await startTestGateway();
  alice = await gateway.addUser('alice');
  bob = await gateway.addUser('bob');
  // An administrator's shared servers: every user reaches them, each with their own login.
  await gateway.registry.servers.add(null, 'remote', { url: fixture.url });
  await gateway.registry.servers.add(null, 'local', { command: process.execPath, args: [KITCHEN_SINK, '--name', 'local'] });
});
afterAll(async () => {
  await gateway?.close();
  await fixture?.close();
});

interface ServerState {
  name: string;
  state: string;
  error?: { code: string; hint?: string };
}
async function remoteOf(token: string): Promise<ServerState | undefined> {
  const answer = (await (await gateway.api('/api/servers', { token })).json()) as { servers: ServerState[] };
  return answer.servers.find((server) => server.name === 'remote');
}

test('a user logs in through the gateway: the browser comes back to /oauth/callback, the tokens are that user\'s, the server is ready at once', async () => {
  expect(await remoteOf(alice.token)).toMatchObject({ state: 'failed', error: { code: 'SERVER_UNAUTHORIZED' } });
  const started = await gateway.api('/api/servers/remote/login', { token: alice.token, method: 'POST' });
  expect(started.status).toBe(200);
  const { status, authorizationUrl } = (await started.json()) as { status: string; authorizationUrl: string };
  expect(status).toBe('authorize');
  // The browser that started the login gets a cookie for the callback only.
  const [setCookie] = started.headers.getSetCookie();
  expect(setCookie).toMatch(/^sb_login_[\w-]+=[\w-]+;/);
  expect(setCookie).toContain('Path=/oauth/callback');
  expect(setCookie).toContain('HttpOnly');
  expect(setCookie).toContain('SameSite=Lax');
  const cookie = (setCookie ?? '').split(';')[0] ?? '';
  const authorization = new URL(authorizationUrl);
  expect(authorization.searchParams.get('redirect_uri')).toBe(`${gateway.url}/oauth/callback`);
  expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');

  // The browser: the authorization server approves at once and sends it back to the gateway.
  const approval = await fetch(authorization, { redirect: 'manual' });
  const back = new URL(approval.headers.get('location') ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(`${gateway.url}/oauth/callback`);
  // Another browser (no cookie, or someone else's) cannot complete it: a victim sent to this URL
  // would otherwise have their account stored under alice.
  const elsewhere = await fetch(back);
  expect(elsewhere.status).toBe(403);
  expect(await elsewhere.text()).toContain('started in another browser');
  expect((await fetch(back, { headers: { cookie: `${cookie.split('=')[0]}=forged` } })).status).toBe(403);
  const page = await fetch(back, { headers: { cookie } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(await page.text()).toContain('You are logged in to “remote”');

  // Tried again at once (not at the next background retry): ready, and its tools work for alice.
  await expect.poll(async () => (await remoteOf(alice.token))?.state, { timeout: 10_000 }).toBe('ready');
  const call = await gateway.api('/api/tools/whoami/call', { token: alice.token, body: {} });
  expect(call.status).toBe(200);
  expect(await call.json()).toMatchObject({ result: { isError: false } });
  expect(fixture.log.authorizations).toHaveLength(1);
  // Bob has not logged in: the server still refuses him, and the hint names the way in.
  expect(await remoteOf(bob.token)).toMatchObject({ state: 'failed', error: { code: 'SERVER_UNAUTHORIZED' } });
  // The same redirect again finds nothing: a state is good once.
  const replay = await fetch(back, { headers: { cookie } });
  expect(replay.status).toBe(404);
  expect(gateway.running.gateway.logins.size).toBe(0);
});

test('refusals: an unknown state, no token, an unknown server, a server started as a process', async () => {
  const unknown = await fetch(`${gateway.url}/oauth/callback?code=abc&state=not-a-login`);
  expect(unknown.status).toBe(404);
  const text = await unknown.text();
  expect(text).toContain('unknown or has expired');
  expect(text).not.toContain('abc');
  expect((await gateway.api('/api/servers/remote/login', { token: null, method: 'POST' })).status).toBe(401);
  const nothing = await gateway.api('/api/servers/nothing/login', { token: bob.token, method: 'POST' });
  expect(nothing.status).toBe(404);
  expect(await nothing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
  const local = await gateway.api('/api/servers/local/login', { token: bob.token, method: 'POST' });
  expect(local.status).toBe(400);
  expect(await local.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', message: expect.stringContaining('remote (URL) servers') } });
});
