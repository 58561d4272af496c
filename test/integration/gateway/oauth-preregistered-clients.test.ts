/**
 * Clients the gateway's authorization server knows without registration: the CLI's (loopback
 * `/callback` on any port, nothing else), the dashboard's (its own origin only), and one an
 * administrator adds (exact redirect URIs; gone once removed). The CLI's id is in the metadata.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { addPreregisteredClient, listPreregisteredClients, removePreregisteredClient } from '../../../src/gateway/oauth-server/preregistered-clients.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { authorize, pkcePair, tokenRequest, type AuthorizationOutcome } from '../../helpers/oauth-flow.js';

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
}, 30_000);

afterAll(async () => {
  await gateway?.close();
});

function attempt(clientId: string, redirectUri: string, pkce = pkcePair()): Promise<AuthorizationOutcome> {
  return authorize(gateway.url, { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'mcp', state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource: `${gateway.url}/mcp` }, { token: gateway.adminToken });
}

test('the CLI client: its id is in the metadata; /callback on any loopback port works, another path or host does not', async () => {
  const metadata = (await (await fetch(`${gateway.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  expect(metadata.switchboard_cli_client_id).toBe('switchboard-cli');
  for (const port of [5555, 61234]) {
    const pkce = pkcePair();
    const redirect = `http://127.0.0.1:${port}/callback`;
    const outcome = await attempt('switchboard-cli', redirect, pkce);
    expect(outcome.kind, redirect).toBe('redirect');
    const code = outcome.kind === 'redirect' ? (outcome.url.searchParams.get('code') ?? '') : '';
    const answer = await tokenRequest(gateway.url, { grant_type: 'authorization_code', code, code_verifier: pkce.verifier, client_id: 'switchboard-cli', redirect_uri: redirect, resource: `${gateway.url}/mcp` });
    expect(answer.status).toBe(200);
  }
  for (const redirect of ['http://127.0.0.1:5555/other', 'http://localhost.evil.example:5555/callback', 'https://127.0.0.1:5555/callback']) {
    expect((await attempt('switchboard-cli', redirect)).kind, redirect).toBe('page');
  }
});

test('the dashboard client redirects only to the gateway\'s own origin', async () => {
  // Its redirect is the gateway itself (which the flow helper would follow): the first answer tells.
  const first = async (redirect: string): Promise<Response> => {
    const pkce = pkcePair();
    const query = new URLSearchParams({ response_type: 'code', client_id: 'switchboard-dashboard', redirect_uri: redirect, scope: 'mcp', state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource: `${gateway.url}/mcp` });
    return fetch(`${gateway.url}/oauth/authorize?${query}`, { redirect: 'manual' });
  };
  const own = await first(`${gateway.url}/`);
  expect(own.status).toBe(303);
  expect(own.headers.get('location')).toMatch(/^\/oauth\/consent\//);
  for (const redirect of [`${gateway.url}/elsewhere`, 'http://127.0.0.1:9/', 'https://evil.example/']) {
    expect((await first(redirect)).status, redirect).toBe(400);
  }
});

test('an administrator\'s client works with its exact redirect URIs and is unknown once removed', async () => {
  const store = gateway.registry.oauthServer;
  await expect(addPreregisteredClient(store, { clientId: 'acme-portal', redirectUris: ['http://portal.acme.example/cb'] })).rejects.toThrow(/redirect|http/i);
  await expect(addPreregisteredClient(store, { clientId: 'switchboard-cli', redirectUris: ['https://x.example/cb'] })).rejects.toThrow(/built-in/);
  await addPreregisteredClient(store, { clientId: 'acme-portal', clientName: 'Acme portal', redirectUris: ['https://portal.acme.example/cb'] });
  const listed = await listPreregisteredClients(store, gateway.url);
  expect(listed.map((client) => [client.clientId, client.builtIn])).toEqual([['switchboard-cli', true], ['switchboard-dashboard', true], ['acme-portal', false]]);
  const outcome = await attempt('acme-portal', 'https://portal.acme.example/cb');
  expect(outcome.kind === 'redirect' && outcome.url.searchParams.get('code')).toBeTruthy();
  expect((await attempt('acme-portal', 'https://portal.acme.example/other')).kind).toBe('page');
  // Not forgotten like an unused dynamic registration: it has no expiry.
  expect(await store.unexpiringClients()).toHaveLength(1);
  await removePreregisteredClient(store, 'acme-portal');
  expect((await attempt('acme-portal', 'https://portal.acme.example/cb')).kind).toBe('page');
  await expect(removePreregisteredClient(store, 'acme-portal')).rejects.toThrow(/no pre-registered client/);
});
