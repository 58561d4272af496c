/**
 * The gateway's front door over a real socket: every /mcp, /api and /metrics request needs a valid
 * token, also on loopback; a foreign Host (DNS rebinding) or Origin (another site's page) is refused
 * before anything runs; bodies over the limit are refused; no CORS is granted to anyone. The probes
 * health checks need stay open.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectV1, connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/processes.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ maxBodyBytes: 64 * 1024 });
});
afterAll(async () => {
  await gateway?.close();
});

/** A raw HTTP request with exactly these headers (fetch forbids setting Host). */
function rawRequest(path: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(gateway.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method, headers, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.end(body);
  });
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
const mcpHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('tokens', () => {
  test('/mcp without a token is 401 with a Bearer challenge, and the official clients cannot connect', async () => {
    const response = await gateway.api('/mcp', { token: null, method: 'POST', body: initialize, headers: mcpHeaders });
    expect(response.status).toBe(401);
    // With the gateway's OAuth server on (the default), the challenge says where to get a token (RFC 9728).
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${gateway.url}/.well-known/oauth-protected-resource/mcp", scope="mcp"`);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, data: { code: 'UNAUTHORIZED' } } });
    await expect(connectV1(gateway.mcpUrl, 'sb_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).rejects.toThrow();
    await expect(connectV2(gateway.mcpUrl, 'not-a-token', 'legacy')).rejects.toThrow();
  });

  test('an unknown, malformed or revoked token is 401 on /api, /mcp and /metrics', async () => {
    const { user, token } = await gateway.addUser('revoked-soon');
    expect((await gateway.api('/api/me', { token })).status).toBe(200);
    const [info] = await gateway.registry.tokens.list(user);
    await gateway.registry.tokens.revoke(user, info?.prefix ?? '');
    for (const path of ['/api/me', '/api/servers', '/metrics']) {
      const response = await gateway.api(path, { token });
      expect(response.status, path).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED', message: 'the API token is unknown, expired or revoked' } });
    }
    expect((await gateway.api('/api/me', { token: null, headers: { authorization: 'Basic YWRtaW46YWRtaW4=' } })).status).toBe(401);
    expect((await gateway.api('/mcp', { token: 'x'.repeat(40), method: 'POST', body: initialize, headers: mcpHeaders })).status).toBe(401);
  });

  test('the token is needed on loopback too, and only /api/events takes it from the query', async () => {
    expect((await gateway.api(`/api/me?token=${gateway.adminToken}`, { token: null })).status).toBe(401);
    const events = await gateway.api(`/api/events?token=${gateway.adminToken}`, { token: null });
    expect(events.status).toBe(200);
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    await events.body?.cancel();
  });

  test('health probes need no token', async () => {
    expect(await (await gateway.api('/healthz', { token: null })).json()).toEqual({ ok: true });
    expect(await (await gateway.api('/readyz', { token: null })).json()).toEqual({ ready: true });
  });
});

describe('Host and Origin (DNS rebinding)', () => {
  test('a foreign Host is refused with 403 before authentication, on every route but the probes', async () => {
    for (const path of ['/mcp', '/api/me', '/metrics', '/']) {
      const response = await rawRequest(path, { host: `evil.example:${new URL(gateway.url).port}`, authorization: `Bearer ${gateway.adminToken}` });
      expect(response.status, path).toBe(403);
      expect(response.body).toContain('Invalid Host: evil.example');
    }
    // Orchestrators probe by the pod's address; the probes hold no data.
    expect((await rawRequest('/healthz', { host: '10.1.2.3:7410' })).status).toBe(200);
  });

  test('loopback names are accepted as Host', async () => {
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      const response = await rawRequest('/api/me', { host: `${host}:${new URL(gateway.url).port}`, authorization: `Bearer ${gateway.adminToken}` });
      expect(response.status, host).toBe(200);
    }
  });

  test('a page of another origin is refused with 403 even with a valid token; the gateway\'s own origin passes', async () => {
    const foreign = await gateway.api('/mcp', { method: 'POST', body: initialize, headers: { ...mcpHeaders, origin: 'http://evil.example' } });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toMatchObject({ error: { data: { code: 'FORBIDDEN' } } });
    expect((await gateway.api('/api/servers', { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await gateway.api('/api/me', { headers: { origin: gateway.url } })).status).toBe(200);
  });
});

describe('sessions', () => {
  test('a session without requests or open streams is closed after its idle time; its id resumes it for its user only', async () => {
    const headers = { ...mcpHeaders, authorization: `Bearer ${gateway.adminToken}` };
    const opened = await fetch(gateway.mcpUrl, { method: 'POST', headers, body: initialize });
    expect(opened.status).toBe(200);
    const sessionId = opened.headers.get('mcp-session-id') ?? '';
    await opened.body?.cancel();
    const list = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const withSession = { ...headers, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    const listed = await fetch(gateway.mcpUrl, { method: 'POST', headers: withSession, body: list });
    expect(listed.status).toBe(200);
    await listed.text();
    // Not idle yet: nothing is closed.
    expect(gateway.running.gateway.mcp.closeIdleSessions()).toBe(0);
    expect(gateway.running.gateway.mcp.closeIdleSessions(Date.now() + 31 * 60_000)).toBe(1);
    await waitFor(() => gateway.running.gateway.mcp.sessionCount === 0, 5_000, 'the session to close');
    const other = await gateway.addUser('idle-intruder');
    expect((await fetch(gateway.mcpUrl, { method: 'POST', headers: { ...withSession, authorization: `Bearer ${other.token}` }, body: list })).status).toBe(403);
    expect(gateway.running.gateway.mcp.sessionCount).toBe(0);
    const resumed = await fetch(gateway.mcpUrl, { method: 'POST', headers: withSession, body: list });
    expect(resumed.status).toBe(200);
    await resumed.text();
  });
});

describe('CORS, limits and methods', () => {
  test('no route grants CORS, not even to a preflight', async () => {
    const preflight = await gateway.api('/mcp', { token: null, method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // A page of another local program (another port) is refused outright; the gateway's own origin gets no CORS header either.
    const foreign = await gateway.api('/api/me', { headers: { origin: 'http://localhost:3000' } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const answer = await gateway.api('/api/me', { headers: { origin: new URL(gateway.url).origin } });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('bodies over the limit are refused with 413 on /api and on /mcp', async () => {
    const big = JSON.stringify({ name: 'x', entry: { url: 'https://example.com/mcp', description: 'y'.repeat(70 * 1024) } });
    const api = await gateway.api('/api/servers', { method: 'POST', body: big });
    expect(api.status).toBe(413);
    expect(await api.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    const mcp = await gateway.api('/mcp', { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { padding: 'z'.repeat(70 * 1024) } }), headers: mcpHeaders });
    expect(mcp.status).toBe(413);
  });

  test('unknown routes are 404 JSON; responses say nosniff and deny framing', async () => {
    const response = await gateway.api('/api/nothing-here');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });
});
