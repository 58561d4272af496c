/**
 * Behind a proxy that sends the gateway its internal address as `Host` (nginx's default
 * `proxy_pass http://127.0.0.1:8080`), the pages of the public URL (sign-in, consent, the dashboard)
 * post with the public origin: the Origin check counts ports on the gateway's own names, so the
 * public URL's origin is allowed as such — that origin exactly, not another port of its host.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ oauth: { issuer: 'https://mcp.example.com' } });
});
afterAll(async () => {
  await gateway?.close();
});

test('a page of the public URL passes the Origin check through a proxy that rewrites Host; another port of that host does not', async () => {
  expect((await gateway.api('/api/me', { headers: { origin: 'https://mcp.example.com' } })).status).toBe(200);
  const otherPort = await gateway.api('/api/me', { headers: { origin: 'https://mcp.example.com:8443' } });
  expect(otherPort.status).toBe(403);
  expect(JSON.stringify(await otherPort.json())).toContain('--allowed-origin');
  expect((await gateway.api('/api/me', { headers: { origin: 'http://mcp.example.com' } })).status).toBe(403);
});
