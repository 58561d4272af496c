/**
 * What deploy/haproxy.cfg's backend tells a client whose request was in flight on a replica that died
 * (issue 20), with a real HAProxy and a stand-in replica that drops the connection, without an answer,
 * when a request asks it to (what a SIGKILLed replica does to the requests it holds):
 * - the request was the second of a kept-alive client connection (as the MCP SDKs' calls are): HAProxy
 *   would close that connection silently (so that a browser retries) and the client would read only
 *   "fetch failed"; deployed, it answers 502 with a JSON-RPC error that says what happened;
 * - HAProxy does not send that request again (a tools/call is not idempotent);
 * - with no replica up, 503 with a JSON-RPC error saying so.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { deployedBackend } from '../../helpers/cluster-test-bed.js';
import { haproxyMissing, startHaproxy, type RunningHaproxy } from '../../helpers/haproxy.js';
import { waitFor } from '../../helpers/processes.js';

const reason = process.env.CI === 'true' ? undefined : haproxyMissing();

describe.skipIf(reason !== undefined)(`deploy/haproxy.cfg in front of a replica that dies under a request${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let replica: Server;
  let haproxy: RunningHaproxy;
  let dropped = 0;
  // One connection to HAProxy, kept alive between requests when HAProxy allows it.
  const agent = new Agent({ connections: 1, pipelining: 1 });

  beforeAll(async () => {
    replica = createServer((request, response) => {
      if (request.url === '/readyz') return void response.end('ready');
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (Buffer.concat(chunks).toString().includes('"die"')) {
          dropped++;
          request.socket.resetAndDestroy();
          return;
        }
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } }));
      });
    });
    await new Promise<void>((resolve) => replica.listen(0, '127.0.0.1', resolve));
    const port = (replica.address() as AddressInfo).port;
    haproxy = await startHaproxy([{ name: 'switchboard', lines: deployedBackend([port]) }]);
    await waitFor(async () => (await haproxy.servers()).some((server) => server.status === 'UP'), 10_000, 'HAProxy to see the replica up');
  }, 30_000);

  afterAll(async () => {
    await agent.close();
    await haproxy?.close();
    if (replica?.listening) await new Promise((resolve) => replica.close(resolve));
  });

  const call = (tool: string) =>
    undiciFetch(`${haproxy.url}/mcp`, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } }),
    });

  test('a call the replica dropped gets a 502 JSON-RPC error saying the replica stopped; it is not sent again', async () => {
    const first = await call('echo');
    expect(first.status).toBe(200);
    await first.text();
    const answer = await call('die');
    expect(answer.status).toBe(502);
    const body = (await answer.json()) as { jsonrpc: string; id: null; error: { code: number; message: string; data: { code: string; hint: string } } };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toMatch(/replica serving this call stopped.*retry it if it is safe/i);
    expect(body.error.data.code).toBe('UNAVAILABLE');
    expect(dropped).toBe(1);
    // The next call goes on.
    expect((await call('echo')).status).toBe(200);
  });

  test('with no replica up, a call gets a 503 JSON-RPC error saying so', async () => {
    const closed = new Promise((resolve) => replica.close(resolve));
    replica.closeAllConnections();
    await closed;
    await waitFor(async () => (await haproxy.servers()).every((server) => server.status.startsWith('DOWN')), 10_000, 'HAProxy to see the replica down');
    const answer = await call('echo');
    expect(answer.status).toBe(503);
    const body = (await answer.json()) as { error: { message: string; data: { code: string } } };
    expect(body.error.message).toMatch(/no switchboard replica is up/i);
    expect(body.error.data.code).toBe('UNAVAILABLE');
  });
});
