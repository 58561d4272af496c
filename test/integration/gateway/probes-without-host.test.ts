/**
 * Health probes as load balancers send them: HAProxy's default `option httpchk` is
 * `OPTIONS / HTTP/1.0` or, with a URI, `GET /healthz HTTP/1.0` — no Host header. A real gateway on a
 * real socket answers them; every other path still refuses a request without Host.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { readUntilClose } from '../../helpers/read-until-close.js';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway?.close();
});

/** Sends `request` as it is on a new TCP connection; resolves with everything the gateway answered. */
function rawRequest(request: string): Promise<string> {
  const { hostname, port } = new URL(gateway.url);
  const socket = connect(Number(port), hostname, () => socket.end(request));
  return readUntilClose(socket, 10_000, (soFar) => `no complete answer within 10 s; so far: ${JSON.stringify(soFar)}`);
}

test.each([
  ['/healthz', '{"ok":true}'],
  ['/readyz', '{"ready":true}'],
])('GET %s HTTP/1.0 without a Host header: 200', async (path, body) => {
  const answer = await rawRequest(`GET ${path} HTTP/1.0\r\n\r\n`);
  expect(answer).toMatch(/^HTTP\/1\.[01] 200 /);
  expect(answer.endsWith(`\r\n\r\n${body}`)).toBe(true);
});

test('other paths without a Host header are still refused', async () => {
  const answer = await rawRequest('GET /api/servers HTTP/1.0\r\n\r\n');
  expect(answer).toMatch(/^HTTP\/1\.[01] 403 /);
});
