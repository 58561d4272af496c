import { InMemoryTransport, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { LEGACY_PROTOCOL_VERSIONS, LeanClient } from './lean-client.js';

type Message = Record<string, unknown>;

/** A scripted server end: answers initialize as told and records everything it receives. */
function scriptedServer(initializeResult: Message | ((request: Message) => Message)) {
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  const received: Message[] = [];
  const waiters: Array<{ match: (message: Message) => boolean; resolve: (message: Message) => void }> = [];
  serverEnd.onmessage = (message) => {
    const record = message as Message;
    received.push(record);
    for (const waiter of [...waiters]) {
      if (waiter.match(record)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(record);
      }
    }
    if (record.method === 'initialize') {
      const result = typeof initializeResult === 'function' ? initializeResult(record) : initializeResult;
      void serverEnd.send({ jsonrpc: '2.0', id: record.id, result } as JSONRPCMessage);
    }
  };
  return {
    clientEnd,
    received,
    send: (message: Message) => serverEnd.send(message as JSONRPCMessage),
    /** Resolves with the next message received that matches. */
    next: (match: (message: Message) => boolean) => new Promise<Message>((resolve) => waiters.push({ match, resolve })),
    start: () => serverEnd.start(),
  };
}

const GOOD_RESULT = {
  protocolVersion: '2025-06-18',
  capabilities: { tools: { listChanged: true } },
  serverInfo: { name: 'scripted', version: '1.2.3' },
  instructions: 'be nice',
};

function leanClient(notifications: Array<[string, Message]> = [], errors: Error[] = []): LeanClient {
  return new LeanClient({
    clientInfo: { name: 'test', version: '0.0.0' },
    capabilities: {},
    serverName: 'scripted',
    onRpcError: (error) => new Error(`rpc ${error.code}: ${error.message}`),
    onNotification: (method, params) => notifications.push([method, params]),
    onError: (error) => errors.push(error),
  });
}

const clients: LeanClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe('LeanClient', () => {
  it('offers and accepts exactly the SDK legacy protocol versions', () => {
    expect([...LEGACY_PROTOCOL_VERSIONS]).toEqual([...SUPPORTED_PROTOCOL_VERSIONS]);
  });

  it('performs the initialize handshake and exposes what the server said', async () => {
    const server = scriptedServer(GOOD_RESULT);
    await server.start();
    const client = leanClient();
    clients.push(client);
    const initialized = server.next((message) => message.method === 'notifications/initialized');
    await client.connect(server.clientEnd, { timeout: 5_000 });
    await initialized;
    const initialize = server.received.find((message) => message.method === 'initialize');
    expect(initialize?.params).toMatchObject({ protocolVersion: LEGACY_PROTOCOL_VERSIONS[0], clientInfo: { name: 'test', version: '0.0.0' } });
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-06-18');
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getServerVersion()).toEqual({ name: 'scripted', version: '1.2.3' });
    expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
    expect(client.getInstructions()).toBe('be nice');
  });

  it('answers ping, refuses other server requests and hands notifications over', async () => {
    const server = scriptedServer(GOOD_RESULT);
    await server.start();
    const notifications: Array<[string, Message]> = [];
    const client = leanClient(notifications);
    clients.push(client);
    await client.connect(server.clientEnd, { timeout: 5_000 });

    const pong = server.next((message) => message.id === 'p1' && message.method === undefined);
    await server.send({ jsonrpc: '2.0', id: 'p1', method: 'ping' });
    expect(await pong).toMatchObject({ result: {} });

    const refused = server.next((message) => message.id === 7 && message.method === undefined);
    await server.send({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: {} });
    expect(await refused).toMatchObject({ error: { code: -32601 } });

    await server.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await server.send({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'hi' } });
    await server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await expect.poll(() => notifications.length).toBe(2);
    expect(notifications).toEqual([
      ['notifications/tools/list_changed', {}],
      ['notifications/message', { level: 'info', data: 'hi' }],
    ]);
  });

  it('rejects a protocol version it cannot speak, with the SDK wording, and closes the transport', async () => {
    const server = scriptedServer({ ...GOOD_RESULT, protocolVersion: '1999-01-01' });
    await server.start();
    const client = leanClient();
    let closed = false;
    const connecting = client.connect(server.clientEnd, { timeout: 5_000 });
    server.clientEnd.onclose = () => (closed = true);
    await expect(connecting).rejects.toThrow("Server's protocol version is not supported: 1999-01-01");
    expect(client.getNegotiatedProtocolVersion()).toBeUndefined();
    expect(closed).toBe(true);
  });

  it('rejects an initialize result that is not one', async () => {
    const server = scriptedServer({ protocolVersion: '2025-06-18', capabilities: {} });
    await server.start();
    const client = leanClient();
    await expect(client.connect(server.clientEnd, { timeout: 5_000 })).rejects.toThrow('invalid initialize result: `serverInfo` is not an object');
  });

  it('rejects what is in flight when the transport closes', async () => {
    const server = scriptedServer(GOOD_RESULT);
    await server.start();
    const client = leanClient();
    await client.connect(server.clientEnd, { timeout: 5_000 });
    const listed = server.next((message) => message.method === 'tools/list');
    const pending = client.requester.request('tools/list', undefined, { timeoutMs: 60_000 });
    await listed;
    await client.close();
    await expect(pending).rejects.toMatchObject({ code: 'SERVER_DISCONNECTED' });
  });
});
