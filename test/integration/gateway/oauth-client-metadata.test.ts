/**
 * Client ID metadata documents (an https URL as `client_id`) against the gateway's authorization
 * server, served by a real HTTPS server: a good document works end to end and is fetched once
 * (cached); a document that is too big, too slow, not JSON, or names another `client_id` is refused
 * with `invalid_client` and no redirect. (A document on a private address is refused in
 * oauth-server.test.ts, where no address is allowed.)
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { authorize, pkcePair, tokenRequest } from '../../helpers/oauth-flow.js';
import { startSelfSignedHttps, type HttpsFixture } from '../../helpers/self-signed-https.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
let gateway: TestGateway;
let https: HttpsFixture;
let alice: { token: string };
const fetched: string[] = [];

beforeAll(async () => {
  https = await startSelfSignedHttps((request, response) => {
    const path = request.url ?? '/';
    fetched.push(path);
    const document = (clientId: string, extra: Record<string, unknown> = {}) => JSON.stringify({ client_id: clientId, client_name: 'CIMD client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...extra });
    switch (path) {
      case '/ok.json':
        response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' }).end(document(`${https.origin}/ok.json`));
        return;
      case '/big.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(document(`${https.origin}/big.json`, { client_uri: `https://example.com/${'x'.repeat(6000)}` }));
        return;
      case '/slow.json':
        // Never answers: the authorization server gives up (its fetch is time-bounded); close() ends the socket.
        return;
      case '/text.json':
        response.writeHead(200, { 'content-type': 'text/plain' }).end('this is not JSON');
        return;
      case '/http-public.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(document(`${https.origin}/http-public.json`, { redirect_uris: ['http://attacker.example/cb'] }));
        return;
      case '/off-list.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(document(`${https.origin}/off-list.json`, { redirect_uris: ['https://attacker.example/cb'] }));
        return;
      case '/mismatch.json':
        response.writeHead(200, { 'content-type': 'application/json' }).end(document('https://elsewhere.example/client.json'));
        return;
      default:
        response.writeHead(404).end();
    }
  });
  gateway = await startTestGateway({ oauth: { allowAddresses: ['loopback'], clientMetadataCa: https.ca } });
  alice = await gateway.addUser('alice');
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await https?.close();
});

function params(clientId: string, challenge: string, redirect = REDIRECT): Record<string, string> {
  return { response_type: 'code', client_id: clientId, redirect_uri: redirect, scope: 'mcp', state: 's', code_challenge: challenge, code_challenge_method: 'S256', resource: `${gateway.url}/mcp` };
}

describe('client ID metadata documents', () => {
  test('a good document: the flow completes with the URL as client_id, and the document is fetched once', async () => {
    const clientId = `${https.origin}/ok.json`;
    for (let round = 0; round < 2; round++) {
      const pkce = pkcePair();
      const outcome = await authorize(gateway.url, params(clientId, pkce.challenge), { token: alice.token });
      expect(outcome.kind, outcome.kind === 'page' ? outcome.text.slice(0, 300) : '').toBe('redirect');
      const code = outcome.kind === 'redirect' ? (outcome.url.searchParams.get('code') ?? '') : '';
      const answer = await tokenRequest(gateway.url, { grant_type: 'authorization_code', code, code_verifier: pkce.verifier, client_id: clientId, redirect_uri: REDIRECT, resource: `${gateway.url}/mcp` });
      expect(answer.status).toBe(200);
      const me = await gateway.api('/api/me', { token: String(answer.body.access_token) });
      expect(await me.json()).toMatchObject({ user: { name: 'alice' } });
    }
    expect(fetched.filter((path) => path === '/ok.json')).toHaveLength(1);
  });

  test('a document\'s redirect URIs obey the redirect policy of registration: http only on loopback', async () => {
    const outcome = await authorize(gateway.url, params(`${https.origin}/http-public.json`, pkcePair().challenge, 'http://attacker.example/cb'), { token: alice.token });
    expect(outcome.kind).toBe('page');
    if (outcome.kind === 'page') {
      expect(outcome.status).toBe(400);
      expect(outcome.text).toMatch(/uses http on a host that is not loopback/);
    }
  });

  test('with registration limited to some hosts, a document cannot send codes elsewhere', async () => {
    const limited = await startTestGateway({ oauth: { allowAddresses: ['loopback'], clientMetadataCa: https.ca, registration: { enabled: false, redirectHosts: ['claude.ai'] } } });
    try {
      const bob = await limited.addUser('bob');
      const outcome = await authorize(limited.url, { ...params(`${https.origin}/off-list.json`, pkcePair().challenge, 'https://attacker.example/cb'), resource: `${limited.url}/mcp` }, { token: bob.token });
      expect(outcome.kind).toBe('page');
      if (outcome.kind === 'page') {
        expect(outcome.status).toBe(400);
        expect(outcome.text).toMatch(/not allow for registration \(allowed: claude\.ai\)/);
      }
      // A document whose redirect is on loopback still works there.
      const pkce = pkcePair();
      const fine = await authorize(limited.url, { ...params(`${https.origin}/ok.json`, pkce.challenge), resource: `${limited.url}/mcp` }, { token: bob.token });
      expect(fine.kind).toBe('redirect');
    } finally {
      await limited.close();
    }
  });

  test.each(['/big.json', '/slow.json', '/text.json', '/mismatch.json'])('%s is refused with invalid_client and no redirect', async (path) => {
    const outcome = await authorize(gateway.url, params(`${https.origin}${path}`, pkcePair().challenge), { token: alice.token });
    expect(outcome.kind).toBe('page');
    if (outcome.kind === 'page') {
      expect(outcome.status).toBe(400);
      expect(outcome.text).toContain('invalid_client');
    }
  });
});
