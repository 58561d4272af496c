/**
 * The 2026-07-28 era against a real SDK v2 server: `protocol: auto` negotiates it (stdio and HTTP),
 * `legacy` stays on 2025 over stdio, and a modern-only HTTP endpoint refuses a client that cannot
 * negotiate with an error that says what to do.
 */
import { afterEach, expect, test } from 'vitest';
import { MultiServerClient } from '../../src/client/multi-server-client.js';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { ErrorCode, type SwitchboardError } from '../../src/errors.js';
import { FIXTURES, freePort, specOf, startHttpFixture } from '../helpers/fixtures.js';

const MODERN = `${FIXTURES}/modern-server.mjs`;
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((item) => item.close()));
});
async function connect(entry: Record<string, unknown>): Promise<ServerConnection> {
  const connection = new ServerConnection(specOf('modern', entry));
  open.push(connection);
  await connection.connect();
  return connection;
}

test('stdio with protocol: auto negotiates 2026-07-28; tools, structured content and progress work', async () => {
  const connection = await connect({ command: process.execPath, args: [MODERN], protocol: 'auto' });
  expect(connection.protocolEra).toBe('modern');
  expect(connection.protocolVersion).toBe('2026-07-28');
  expect((await connection.listTools()).map((tool) => tool.name)).toEqual(['echo', 'count_to']);
  expect((await connection.callTool('echo', { message: 'hi' })).content).toEqual([{ type: 'text', text: 'modern: hi' }]);
  const progress: number[] = [];
  const result = await connection.callTool('count_to', { n: 3 }, { onProgress: (update) => progress.push(update.progress) });
  expect(result.structuredContent).toEqual({ n: 3 });
  expect(progress).toEqual([1, 2, 3]);
  // The 2026-07-28 era has no ping: it resolves without a round trip.
  await connection.ping();
});

test('stdio by default speaks the 2025 handshake, even to a server that could do both', async () => {
  const connection = await connect({ command: process.execPath, args: [MODERN] });
  expect(connection.protocolEra).toBe('legacy');
  expect(connection.protocolVersion).toBe('2025-11-25');
  expect((await connection.callTool('echo', { message: 'x' })).content[0]).toEqual({ type: 'text', text: 'modern: x' });
});

test('HTTP: a modern-only endpoint is reached with the default (auto) negotiation, refused with legacy', async () => {
  const port = await freePort();
  const fixture = await startHttpFixture(process.execPath, [MODERN, '--http', String(port)], { port });
  open.push(fixture);
  const connection = await connect({ url: fixture.url('/mcp') });
  expect(connection.protocolVersion).toBe('2026-07-28');
  expect((await connection.callTool('echo', { message: 'over http' })).content).toEqual([{ type: 'text', text: 'modern: over http' }]);
  const legacy = new ServerConnection(specOf('old', { url: fixture.url('/mcp'), protocol: 'legacy', transport: 'http' }));
  open.push(legacy);
  const error = (await legacy.connect().catch((caught: unknown) => caught)) as SwitchboardError;
  expect(error.code).toBe(ErrorCode.ProtocolVersionUnsupported);
  expect(error.hint).toContain('protocol: auto');
});

test('MultiServerClient mixes eras: a modern and a 2025 server in one tool set', async () => {
  const client = await MultiServerClient.connect({
    mcpServers: {
      modern: { command: process.execPath, args: [MODERN], protocol: 'auto' },
      legacy: { command: process.execPath, args: [MODERN] },
    },
  });
  open.push(client);
  expect(client.status().map((server) => [server.name, server.protocolVersion])).toEqual([
    ['modern', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ]);
  expect((await client.callTool('modern__echo', { message: 'a' })).content[0]).toEqual({ type: 'text', text: 'modern: a' });
  expect((await client.callTool('legacy__echo', { message: 'b' })).content[0]).toEqual({ type: 'text', text: 'modern: b' });
});
