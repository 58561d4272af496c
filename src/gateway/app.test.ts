/**
 * The gateway's routes in process (`app.request()`, no socket), over a real SQLite registry in a
 * temporary folder. No server process is started: the users here have no enabled servers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RegistryUser, ServerRegistry } from '../registry/index.js';
import { createGatewayApp } from './app.js';
import { Gateway } from './gateway.js';
import type { GatewayApp } from './gateway-app-types.js';

let dir: string;
let registry: ServerRegistry;
let gateway: Gateway;
let app: GatewayApp;
let adminToken: string;
let tenant: RegistryUser;
let tenantToken: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-app-'));
  registry = await ServerRegistry.open({ db: join(dir, 'switchboard.db'), keyFile: join(dir, 'secret.key'), watch: false });
  const admin = await registry.users.add('admin', { isAdmin: true });
  adminToken = (await registry.tokens.create(admin)).token;
  tenant = await registry.users.add('tenant');
  tenantToken = (await registry.tokens.create(tenant)).token;
  gateway = await Gateway.create({
    registry,
    maxBodyBytes: 2_048,
    sharedConfig: { servers: [{ type: 'http', name: 'from_file', url: 'https://mcp.example.com/mcp?api_key=abcdef', headers: { 'X-Key': 'a-long-header-secret-value-9876' }, transport: 'auto', enabled: false, startupTimeoutMs: 1_000, callTimeoutMs: 1_000, protocol: 'auto' }] },
  });
  app = createGatewayApp(gateway);
});

afterAll(async () => {
  await gateway?.close({ deadlineMs: 0 });
  await registry?.close();
  rmSync(dir, { recursive: true, force: true });
});

function call(path: string, options: { token?: string | null; method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
  const token = options.token === undefined ? adminToken : options.token;
  return Promise.resolve(
    app.request(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers: { host: '127.0.0.1:7410', ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
      ...(options.body === undefined ? {} : { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
    }),
  );
}

describe('probes and the page', () => {
  test('/healthz and /readyz answer without a token', async () => {
    expect(await (await call('/healthz', { token: null })).json()).toEqual({ ok: true });
    expect(await (await call('/readyz', { token: null })).json()).toEqual({ ready: true });
  });

  test('/ is a page with a strict content security policy and no data', async () => {
    const page = await call('/', { token: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    // The built dashboard (after `npm run build`) or the page saying to build it: either way, no data.
    const html = await page.text();
    expect(html).toMatch(/^<!doctype html>/i);
    for (const secret of [adminToken, tenantToken, 'admin']) expect(html).not.toContain(secret);
  });

  test('every answer has a request id (an offered one is kept when it is safe)', async () => {
    expect((await call('/healthz', { token: null, headers: { 'x-request-id': 'trace-123' } })).headers.get('x-request-id')).toBe('trace-123');
    expect((await call('/healthz', { token: null, headers: { 'x-request-id': 'bad id\n' } })).headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-z]+$/);
  });
});

describe('authentication and the front door', () => {
  test('no token, a bad one, or a foreign Host/Origin are refused', async () => {
    expect((await call('/api/me', { token: null })).status).toBe(401);
    expect((await call('/api/me', { token: 'sb_000000000000_' + 'A'.repeat(43) })).status).toBe(401);
    expect((await call('/metrics', { token: null })).status).toBe(401);
    expect((await call('/mcp', { token: null, method: 'POST', body: '{}' })).status).toBe(401);
    expect((await call('/api/me', { headers: { host: 'rebound.example' } })).status).toBe(403);
    expect((await call('/api/me', { headers: { origin: 'https://rebound.example' } })).status).toBe(403);
  });

  test('/api/me names the user', async () => {
    expect(await (await call('/api/me', { token: tenantToken })).json()).toEqual({ user: { id: tenant.id, name: 'tenant', admin: false } });
  });
});

describe('/api/servers without running anything', () => {
  test('the config file\'s servers are listed (masked for the admin, bare for a tenant) and read-only', async () => {
    const admin = (await (await call('/api/servers')).json()) as { servers: Array<Record<string, unknown>> };
    expect(admin.servers).toEqual([
      expect.objectContaining({
        name: 'from_file',
        shared: true,
        editable: false,
        enabled: false,
        kind: 'url',
        state: 'closed',
        entry: { url: 'https://mcp.example.com/mcp?api_key=xxxx', headers: { 'X-Key': '••••9876' } },
        stats: { calls: 0, refused: {}, errorRate: 0, latency: { p50: 0, p95: 0, p99: 0 }, timeline: [] },
      }),
    ]);
    const bare = (await (await call('/api/servers', { token: tenantToken })).json()) as { servers: Array<Record<string, unknown>> };
    expect(bare.servers[0]).toMatchObject({ name: 'from_file', entry: {} });
    expect((await call('/api/servers/from_file', { method: 'PATCH', body: { enabled: true } })).status).toBe(403);
  });

  test('add, change and remove a disabled server of one\'s own', async () => {
    // As the admin: a tenant's URL must resolve to a public address, and this machine resolves nothing.
    const created = await call('/api/servers', { body: { name: 'remote', entry: { url: 'https://mcp.example.com/mcp', apiKey: 'key-of-tenant-0123456789' }, enabled: false } });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ server: { name: 'remote', shared: false, editable: true, enabled: false, kind: 'url', state: 'closed', entry: { url: 'https://mcp.example.com/mcp', apiKey: '••••6789' } } });
    const patched = await call('/api/servers/remote', { method: 'PATCH', body: { entry: { url: 'https://mcp.example.com/v2', apiKey: '••••6789' } } });
    expect(await patched.json()).toMatchObject({ server: { entry: { url: 'https://mcp.example.com/v2', apiKey: '••••6789' } } });
    expect((await call('/api/servers/remote', { token: tenantToken, method: 'DELETE' })).status).toBe(404);
    expect((await call('/api/servers/remote', { method: 'DELETE' })).status).toBe(204);
    expect((await call('/api/servers/remote', { method: 'DELETE' })).status).toBe(404);
  });

  test('bad requests say what is wrong', async () => {
    expect(await (await call('/api/servers', { body: { entry: {} } })).json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT', message: '`name` must be a non-empty string' } });
    expect((await call('/api/servers', { body: '[1,2]' })).status).toBe(400);
    expect((await call('/api/servers/nothing', { method: 'PATCH', body: {} })).status).toBe(400);
    expect((await call('/api/servers/nothing', { method: 'PATCH', body: { enabled: 'yes' } })).status).toBe(400);
    expect((await call('/api/servers/nothing', { method: 'PATCH', body: { enabled: true } })).status).toBe(404);
    const invalid = (await (await call('/api/servers', { token: tenantToken, body: { name: 'bad', entry: { url: 'ftp://x' } } })).json()) as { error: { code: string; issues?: unknown[] } };
    expect(['CONFIG_INVALID', 'POLICY_VIOLATION']).toContain(invalid.error.code);
    expect((await call('/api/servers', { body: { name: 'from_file', entry: { url: 'https://a.example' } } })).status).toBe(409);
  });

  test('a body over the limit is 413 before it is read', async () => {
    const response = await call('/api/servers', { body: { name: 'big', entry: { url: 'https://a.example', description: 'x'.repeat(4_000) } } });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

describe('tools, stats, metrics and events of a user with no servers', () => {
  test('empty catalogs and stats; unknown tools are 404', async () => {
    expect(await (await call('/api/tools', { token: tenantToken })).json()).toEqual({ tools: [], version: expect.any(Number) });
    expect(await (await call('/api/stats', { token: tenantToken })).json()).toEqual({ since: expect.any(Number), refused: {}, servers: [] });
    const missing = await call('/api/tools/nothing/call', { token: tenantToken, body: { arguments: {} } });
    expect(missing.status).toBe(404);
    expect((await call('/api/tools/nothing/call', { token: tenantToken, body: { arguments: [] } })).status).toBe(400);
  });

  test('/metrics: the admin sees the gateway\'s own series, a tenant none of them', async () => {
    const admin = await (await call('/metrics')).text();
    expect(admin).toContain('switchboard_http_requests_total{method="GET",route="/api/me",status="200"}');
    expect(admin).toContain('switchboard_mcp_sessions 0');
    expect(await (await call('/metrics', { token: tenantToken })).text()).not.toContain('switchboard_');
  });

  test('/api/events opens a stream with ?token=, which no other route accepts', async () => {
    expect((await call(`/api/me?token=${tenantToken}`, { token: null })).status).toBe(401);
    const response = await call(`/api/events?token=${tenantToken}`, { token: null });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toBe(': connected\n\n');
    await reader?.cancel();
  });
});
