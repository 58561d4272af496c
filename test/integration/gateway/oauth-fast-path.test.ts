/**
 * OAuth access tokens on the fast path of `/mcp`: a token with the full `mcp` scope is served there
 * from the token cache (the same as a static token), while a list-only `mcp:read` token's
 * `tools/call` is refused with 403 insufficient_scope — also inside an open 2025 session of the same
 * user whose full-scope token already warmed the cache.
 */

import { afterAll, beforeAll, expect, test } from 'vitest';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { authorize, pkcePair, registerClient, tokenRequest } from '../../helpers/oauth-flow.js';

const REDIRECT = 'http://127.0.0.1:9/callback';
const ACCEPT = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
/** Fast-path request ids start with `f` and 8 hex digits; the app's are 8 hex digits. */
const FAST_ID = /^f[0-9a-f]{8}-/;

let gateway: TestGateway;
let clientId: string;

beforeAll(async () => {
  gateway = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
  const registered = await registerClient(gateway.url, { client_name: 'fast-path probe', redirect_uris: [REDIRECT] });
  clientId = String(((await registered.json()) as { client_id: string }).client_id);
}, 30_000);

afterAll(async () => {
  await gateway?.close();
});

/** An access token of the administrator with `scope`, through the whole authorization. */
async function accessToken(scope: string): Promise<string> {
  const pkce = pkcePair();
  const resource = `${gateway.url}/mcp`;
  const outcome = await authorize(gateway.url, { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, scope, state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource }, { token: gateway.adminToken });
  if (outcome.kind !== 'redirect') throw new Error(`no redirect: ${outcome.status}`);
  const answer = await tokenRequest(gateway.url, { grant_type: 'authorization_code', code: outcome.url.searchParams.get('code') ?? '', code_verifier: pkce.verifier, client_id: clientId, redirect_uri: REDIRECT, resource });
  expect(answer.status).toBe(200);
  return String(answer.body.access_token);
}

async function post(token: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(gateway.mcpUrl, { method: 'POST', headers: { ...ACCEPT, authorization: `Bearer ${token}`, ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(20_000) });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'echo', arguments: { message: 'hi' } } };

test('a full-scope token is served on the fast path; an mcp:read token in the same open session gets 403 insufficient_scope', async () => {
  const full = await accessToken('mcp');
  const read = await accessToken('mcp:read');
  const opened = await post(full, {}, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'oauth-fast-path', version: '1' } } });
  expect(opened.status).toBe(200);
  const session = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-06-18' };
  expect((await post(full, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);

  // Twice: the first verifies the token, the second is answered from the token cache; both on the fast path.
  for (let round = 0; round < 2; round++) {
    const served = await post(full, session, call);
    expect(served.status).toBe(200);
    expect(served.headers.get('x-request-id')).toMatch(FAST_ID);
    expect(served.text).toContain('hi');
  }

  // The list-only token of the same user lists (the general path, which knows its scope) but never calls, twice (cached too).
  for (let round = 0; round < 2; round++) {
    const listed = await post(read, session, { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
    expect(listed.status).toBe(200);
    expect(listed.text).toContain('echo');
    const refused = await post(read, session, call);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect(refused.text).not.toContain('"hi"');
  }
});
