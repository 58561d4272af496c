/**
 * ServerConnection against real servers over stdio: the kitchen-sink fixture (SDK v2), the npm
 * reference servers, the stdlib Python server, and every path form.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { ErrorCode, isSwitchboardError } from '../../src/errors.js';
import { KITCHEN_SINK, PYTHON_SERVER, ROOT, bin, specOf } from '../helpers/fixtures.js';
import { groupMembers, isAlive } from '../helpers/processes.js';

// The fixture's tiny PNG and WAV, byte for byte.
const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const open: ServerConnection[] = [];
async function connect(name: string, entry: Record<string, unknown>): Promise<ServerConnection> {
  const connection = new ServerConnection(specOf(name, entry));
  open.push(connection);
  await connection.connect();
  return connection;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

describe('the kitchen-sink server over stdio', () => {
  test('handshake: negotiated version, server info, capabilities, instructions', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    expect(connection.state).toBe('ready');
    expect(connection.transportKind).toBe('stdio');
    expect(connection.protocolVersion).toBe('2025-11-25');
    expect(connection.protocolEra).toBe('legacy');
    expect(connection.serverInfo).toMatchObject({ name: 'kitchen-sink', version: '1.0.0' });
    expect(connection.capabilities).toHaveProperty('tools');
  });

  test('lists tools, resources, templates and prompts', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    const tools = await connection.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'sleep', 'image', 'audio', 'mixed', 'fail', 'count', 'add_tool', 'log']);
    expect(tools[0]).toMatchObject({ description: 'Echoes the message back.', inputSchema: { type: 'object', properties: { message: { type: 'string' } } }, annotations: { readOnlyHint: true } });
    expect((await connection.listResources()).map((resource) => resource.uri)).toEqual(['memo://readme']);
    expect((await connection.listResourceTemplates()).map((template) => template.uriTemplate)).toEqual(['memo://notes/{id}']);
    expect((await connection.listPrompts()).map((prompt) => prompt.name)).toEqual(['greet']);
  });

  test('text, image and audio come back intact; every item of a mixed result is kept in order', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    expect(await connection.callTool('echo', { message: 'héllo' })).toEqual({ isError: false, content: [{ type: 'text', text: 'héllo' }] });
    expect((await connection.callTool('image')).content).toEqual([{ type: 'image', data: TINY_PNG, mimeType: 'image/png' }]);
    const audio = (await connection.callTool('audio')).content[0];
    expect(audio).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    expect(Buffer.from(audio?.type === 'audio' ? audio.data : '', 'base64').subarray(0, 4).toString()).toBe('RIFF');
    const mixed = await connection.callTool('mixed');
    expect(mixed.content.map((item) => item.type)).toEqual(['text', 'image', 'audio', 'resource', 'resource_link', 'text']);
    expect(mixed.content[3]).toEqual({ type: 'resource', resource: { uri: 'memo://one', mimeType: 'text/plain', text: 'embedded text' } });
    expect(mixed.content[4]).toEqual({ type: 'resource_link', uri: 'memo://two', name: 'two', mimeType: 'text/plain' });
    expect(mixed.structuredContent).toEqual({ items: 6 });
    expect(await connection.callTool('add', { a: 2, b: 3 })).toEqual({ isError: false, content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } });
  });

  test('a tool error is a result with isError, not an exception', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    const result = await connection.callTool('fail', { reason: 'nope' });
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'failed: nope' }] });
  });

  test('resources and prompts', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    expect((await connection.readResource('memo://notes/42')).contents).toEqual([{ uri: 'memo://notes/42', mimeType: 'text/plain', text: 'note 42' }]);
    const prompt = await connection.getPrompt('greet', { who: 'Ada' });
    expect(prompt.messages[0]).toEqual({ role: 'user', content: { type: 'text', text: 'Say hello to Ada from kitchen-sink.' } });
  });

  test('progress notifications reach the callback', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    const updates: Array<{ progress: number; total?: number }> = [];
    const result = await connection.callTool('sleep', { ms: 160 }, { onProgress: (update) => updates.push(update) });
    expect(result.content).toEqual([{ type: 'text', text: 'slept 160 ms' }]);
    expect(updates.map((update) => update.progress)).toEqual([1, 2, 3, 4]);
    expect(updates[0]).toMatchObject({ total: 4, message: 'step 1' });
  });

  test('a call cancelled midway rejects at once and the server hears notifications/cancelled', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    const stderr: string[] = [];
    connection.on('stderr', ({ line }) => stderr.push(line));
    const abort = new AbortController();
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    const call = connection.callTool('sleep', { ms: 10_000 }, { signal: abort.signal, onProgress: () => progressed() });
    await firstProgress;
    abort.abort();
    await expect(call).rejects.toMatchObject({ code: ErrorCode.RequestCancelled, server: 'sink' });
    await expect.poll(() => stderr.some((line) => line.startsWith('sleep cancelled')), { timeout: 5_000 }).toBe(true);
    // The connection stays usable.
    expect((await connection.callTool('echo', { message: 'still here' })).content[0]).toEqual({ type: 'text', text: 'still here' });
  });

  test('a per-call deadline rejects with REQUEST_TIMEOUT', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    await expect(connection.callTool('sleep', { ms: 5_000 }, { timeoutMs: 300 })).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
  });

  test('close() ends the server process; it is idempotent and calls after it fail clearly', async () => {
    const connection = await connect('sink', { path: KITCHEN_SINK });
    const pid = connection.pid;
    expect(pid).toBeTypeOf('number');
    expect(isAlive(pid ?? -1)).toBe(true);
    await Promise.all([connection.close(), connection.close()]);
    await connection.close();
    expect(isAlive(pid ?? -1)).toBe(false);
    expect(groupMembers(pid ?? -1)).toEqual([]);
    expect(connection.state).toBe('closed');
    await expect(connection.callTool('echo', { message: 'x' })).rejects.toMatchObject({ code: ErrorCode.ServerDisconnected });
  });

  // Both 2025-era stdio sessions: the SDK-free one, and the SDK's handshake with lean requests (a client that answers server requests).
  test.each([
    ['SDK-free', {}],
    ['hybrid', { roots: () => Promise.resolve([]) }],
  ] as const)('%s session: a lone call is written at once with no end-of-turn wait; calls that overlap are still joined in one write', async (_kind, options) => {
    const connection = new ServerConnection(specOf('sink', { path: KITCHEN_SINK }), options);
    open.push(connection);
    await connection.connect();
    const immediates = (): number => process.getActiveResourcesInfo().filter((name) => name === 'Immediate').length;
    // The handshake's writes end their turn first.
    await new Promise((resolve) => setImmediate(resolve));
    const before = immediates();
    const lone = connection.callTool('echo', { message: 'one' });
    // Written already (a wait for the turn's end would be pending here): the process may sleep at once.
    expect(immediates()).toBe(before);
    await expect(lone).resolves.toMatchObject({ content: [{ type: 'text', text: 'one' }] });
    const overlapping = ['a', 'b', 'c'].map((message) => connection.callTool('echo', { message }));
    expect(immediates()).toBe(before + 1);
    const results = await Promise.all(overlapping);
    expect(results.map((result) => result.content[0])).toEqual(['a', 'b', 'c'].map((text) => ({ type: 'text', text })));
  });

  test('state changes are events', async () => {
    const connection = new ServerConnection(specOf('sink', { path: KITCHEN_SINK }));
    open.push(connection);
    const seen: string[] = [];
    connection.on('state-change', ({ from, to }) => seen.push(`${from}→${to}`));
    await connection.connect();
    await connection.close();
    expect(seen).toEqual(['connecting→ready', 'ready→closed']);
  });
});

describe('every path form', () => {
  test('.py runs with python3 (stdlib-only server)', async () => {
    const connection = await connect('py', { path: PYTHON_SERVER });
    expect(connection.serverInfo?.name).toBe('python-stdlib-server');
    expect((await connection.callTool('reverse', { text: 'abc' })).content).toEqual([{ type: 'text', text: 'cba' }]);
  });

  test('.mjs runs with node', async () => {
    const connection = await connect('js', { path: `${KITCHEN_SINK} --name via-path` });
    expect(connection.serverInfo?.name).toBe('via-path');
  });

  test('an npm package runs with npx -y (server-memory, file in a temp folder)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-memory-'));
    try {
      const connection = await connect('memory', { path: '@modelcontextprotocol/server-memory', env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }, timeout: 30 });
      expect(connection.spec.type === 'stdio' && connection.spec.command).toBe('npx');
      await connection.callTool('create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote programs'] }] });
      const graph = await connection.callTool('read_graph');
      expect(graph.content[0]?.type === 'text' && graph.content[0].text).toContain('Ada');
      // npx starts the server as its child: closing must end both.
      const pid = connection.pid ?? -1;
      expect(groupMembers(pid).length).toBeGreaterThanOrEqual(2);
      await connection.close();
      expect(groupMembers(pid)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an executable path runs as it is (server-everything from node_modules/.bin)', async () => {
    const connection = await connect('everything', { path: bin('mcp-server-everything') });
    const tools = await connection.listTools();
    expect(tools.map((tool) => tool.name)).toContain('get-tiny-image');
    const image = await connection.callTool('get-tiny-image');
    expect(image.content.some((item) => item.type === 'image' && item.mimeType === 'image/png' && item.data.length > 100)).toBe(true);
  });

  test('server-filesystem with a folder argument', async () => {
    const connection = await connect('fs', { command: bin('mcp-server-filesystem'), args: [join(ROOT, 'demo/sandbox')] });
    const listing = await connection.callTool('list_directory', { path: join(ROOT, 'demo/sandbox') });
    expect(listing.content[0]?.type === 'text' && listing.content[0].text).toContain('README.md');
    const outside = await connection.callTool('read_text_file', { path: '/etc/passwd' });
    expect(outside.isError).toBe(true);
  });
});

test('a wrong call is a typed error, not a crash', async () => {
  const connection = await connect('sink', { path: KITCHEN_SINK });
  const error = await connection.readResource('memo://missing').catch((caught: unknown) => caught);
  expect(isSwitchboardError(error) && error.code).toBe(ErrorCode.ServerRequestFailed);
  expect(isSwitchboardError(error) && typeof error.details.rpcCode).toBe('number');
});
