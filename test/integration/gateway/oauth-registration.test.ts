/**
 * The admin's controls over who may register with the gateway's authorization server — switched
 * off, restricted to redirect hosts, capped per hour, unused clients forgotten — and that verifying
 * an access token on the hot path is remembered (not a database read per call).
 */
import { afterEach, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { authorize, pkcePair, registerClient, tokenRequest } from '../../helpers/oauth-flow.js';
import { waitFor } from '../../helpers/processes.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
});

test('registration switched off: the endpoint is gone and discovery does not offer it', async () => {
  gateway = await startTestGateway({ oauth: { registration: { enabled: false } } });
  expect((await registerClient(gateway.url, { redirect_uris: [REDIRECT] })).status).toBe(404);
  const metadata = (await (await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  expect(metadata.registration_endpoint).toBeUndefined();
});

test('restricted to redirect hosts, and capped per hour', async () => {
  gateway = await startTestGateway({ oauth: { registration: { redirectHosts: ['claude.ai'], perHour: 2 } } });
  const refused = await registerClient(gateway.url, { redirect_uris: ['https://chat.example/cb'] });
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({ error: 'invalid_client_metadata', error_description: expect.stringContaining('does not allow') });
  expect((await registerClient(gateway.url, { redirect_uris: ['https://claude.ai/api/mcp/auth_callback'] })).status).toBe(201);
  expect((await registerClient(gateway.url, { redirect_uris: [REDIRECT] })).status).toBe(201);
  const capped = await registerClient(gateway.url, { redirect_uris: [REDIRECT] });
  expect(capped.status).toBe(429);
  expect(await capped.json()).toMatchObject({ error: 'temporarily_unavailable' });
});

test('a registered client nobody authorizes is forgotten after its idle lifetime; one in use is kept', async () => {
  gateway = await startTestGateway({ oauth: { registration: { unusedClientTtlMs: 1_500 } } });
  const { token } = await gateway.addUser('alice');
  const register = async () => String(((await (await registerClient(gateway?.url ?? '', { redirect_uris: [REDIRECT] })).json()) as { client_id: string }).client_id);
  const idle = await register();
  const used = await register();
  const base = gateway.url;
  const attempt = (clientId: string, deny = false) => authorize(base, { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope: 'mcp', code_challenge: pkcePair().challenge, code_challenge_method: 'S256', resource: `${base}/mcp` }, { token, deny });
  // Authorizing `used` now and again later pushes its expiry out each time.
  expect((await attempt(used)).kind).toBe('redirect');
  // Denied attempts grant nothing, so they do not count as use.
  expect((await attempt(idle, true)).kind).toBe('redirect');
  await waitFor(async () => (await attempt(used)).kind === 'redirect' && (await attempt(idle, true)).kind === 'page', 10_000, 'the idle client to be forgotten');
  expect((await attempt(used)).kind).toBe('redirect');
});

test('verifying an access token is remembered: many calls, one lookup', async () => {
  gateway = await startTestGateway();
  const { token } = await gateway.addUser('alice');
  const base = gateway.url;
  const client = String(((await (await registerClient(base, { redirect_uris: [REDIRECT] })).json()) as { client_id: string }).client_id);
  const pkce = pkcePair();
  const outcome = await authorize(base, { response_type: 'code', client_id: client, redirect_uri: REDIRECT, scope: 'mcp', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource: `${base}/mcp` }, { token });
  const code = outcome.kind === 'redirect' ? (outcome.url.searchParams.get('code') ?? '') : '';
  const answer = await tokenRequest(base, { grant_type: 'authorization_code', code, code_verifier: pkce.verifier, client_id: client, redirect_uri: REDIRECT, resource: `${base}/mcp` });
  const access = String(answer.body.access_token);
  // Count the store's lookups of access tokens (the real store, only observed).
  const store = gateway.registry.oauthServer;
  const find = store.find.bind(store);
  let lookups = 0;
  store.find = (model, id) => {
    if (model === 'AccessToken') lookups++;
    return find(model, id);
  };
  for (let call = 0; call < 20; call++) expect((await gateway.api('/api/me', { token: access })).status).toBe(200);
  expect(lookups).toBe(1);
});
