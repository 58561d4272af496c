/**
 * MultiServerClient against several real servers at once: collisions under each naming strategy,
 * long and odd names, a hanging server among healthy ones, list_changed end to end through a handle
 * obtained before, include/exclude, argument validation, resources and prompts across servers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { MultiServerClient, type MultiServerClientEvents } from '../../src/client/multi-server-client.js';
import { isProviderSafeName } from '../../src/client/catalog/name-catalog.js';
import { ConfigError, ErrorCode, type SwitchboardError } from '../../src/errors.js';
import { FAULT_SERVER, KITCHEN_SINK, PYTHON_SERVER } from '../helpers/fixtures.js';
import { livingProcesses } from '../helpers/processes.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { nextEvent } from '../helpers/next-event.js';

const connect = connectForEachTest();
const sink = (name: string, tools: string[] = [], extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [KITCHEN_SINK, '--name', name, ...(tools.length > 0 ? ['--tools', tools.join(',')] : [])],
  ...extra,
});

describe('naming with two servers offering the same tools (the seed case: read_file and search on fs and db)', () => {

  test('on-conflict: shared names get prefixes, and each routes to its own server', async () => {
    const client = await connect({ naming: 'on-conflict', mcpServers: { fs: sink('fs', ['read_file', 'search']), db: sink('db', ['read_file', 'search', 'query']) } });
    const names = client.listTools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['fs__read_file', 'db__read_file', 'fs__search', 'db__search', 'query']));
    expect(names).not.toContain('read_file');
    expect((await client.callTool('fs__read_file', { query: 'x' })).content[0]).toEqual({ type: 'text', text: 'fs/read_file: x' });
    expect((await client.callTool('db__read_file', { query: 'y' })).content[0]).toEqual({ type: 'text', text: 'db/read_file: y' });
    expect((await client.callTool('query', {})).content[0]).toEqual({ type: 'text', text: 'db/query: ' });
    const report = client.catalogReport().tools;
    expect(report.collisions).toEqual(expect.arrayContaining([{ name: 'read_file', servers: ['fs', 'db'] }, { name: 'search', servers: ['fs', 'db'] }]));
    expect(client.getTool('fs__read_file')?.description).toBe('[fs] Extra tool read_file of fs.');
  });

  test('prefix: every name is prefixed; a per-server prefix overrides the server name', async () => {
    const client = await connect({ naming: 'prefix', mcpServers: { filesystem: sink('fs', ['read_file'], { prefix: 'fs', include: ['read_file'] }), db: sink('db', ['query'], { include: ['query'] }) } });
    expect(client.listTools().map((tool) => tool.name)).toEqual(['fs__read_file', 'db__query']);
  });

  test('none: a collision is a config error naming both servers, and nothing keeps running', async () => {
    const marker = `none-${process.pid}-${Date.now()}`;
    const error = await MultiServerClient.connect({ naming: 'none', mcpServers: { fs: sink(`${marker}-fs`, ['read_file']), db: sink(`${marker}-db`, ['read_file']) } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((issue) => issue.message)).toContain('tool "read_file" is offered by servers "fs" and "db"');
    expect(livingProcesses().filter((process) => process.cmdline.includes(marker))).toEqual([]);
  });
});

test('names with dots, spaces and 80+ characters are provider-safe and callable', async () => {
  const long = `tool_${'x'.repeat(80)}`;
  const client = await connect({ mcpServers: { 'odd server.v1': sink('odd', ['files.read', 'two words', long, `${long}_2`], { include: ['files.read', 'two words', 'tool_*'] }) } });
  const tools = client.listTools();
  expect(tools).toHaveLength(4);
  for (const tool of tools) expect(isProviderSafeName(tool.name)).toBe(true);
  const byOriginal = new Map(tools.map((tool) => [tool.originalName, tool.name]));
  expect(byOriginal.get('files.read')).toBe('files_read');
  expect(byOriginal.get('two words')).toBe('two_words');
  expect(byOriginal.get(long)).toHaveLength(64);
  expect(byOriginal.get(long)).not.toBe(byOriginal.get(`${long}_2`));
  expect((await client.callTool(byOriginal.get(long) ?? '', { query: 'q' })).content[0]).toEqual({ type: 'text', text: `odd/${long}: q` });
  expect((await client.callTool('files_read', { query: 'q' })).content[0]).toEqual({ type: 'text', text: 'odd/files.read: q' });
});

test('one server that never answers does not hold up the others beyond its own deadline', async () => {
  const started = Date.now();
  const client = await connect({
    mcpServers: {
      a: sink('a', [], { include: ['echo'] }),
      b: { path: PYTHON_SERVER },
      hang: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'never-initialize'], timeout: 2 },
      c: sink('c', ['c_tool'], { include: ['c_tool'] }),
    },
  });
  const elapsed = Date.now() - started;
  expect(elapsed).toBeGreaterThanOrEqual(1_900);
  expect(elapsed).toBeLessThan(6_000);
  const status = Object.fromEntries(client.status().map((server) => [server.name, server]));
  expect(status.a?.state).toBe('ready');
  expect(status.b?.state).toBe('ready');
  expect(status.c?.state).toBe('ready');
  expect(status.hang).toMatchObject({ state: 'failed', error: { code: ErrorCode.ServerStartFailed, hint: expect.stringContaining('timeout') } });
  expect(client.listTools().map((tool) => tool.server).sort()).toEqual(['a', 'b', 'b', 'b', 'c'].sort());
});

test("onServerError: 'throw' rejects listing every failure, and leaves no process", async () => {
  const error = (await MultiServerClient.connect({
    onServerError: 'throw',
    mcpServers: {
      good: sink('good'),
      bad: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'exit-at-start'] },
      worse: { command: 'no-such-command-xyz' },
    },
  }).catch((caught: unknown) => caught)) as SwitchboardError;
  expect(error.code).toBe(ErrorCode.ServerStartFailed);
  expect(error.message).toContain('2 servers failed to start');
  expect(error.message).toContain('exited with code 3');
  expect(error.message).toContain('command not found: no-such-command-xyz');
  expect((error.details.failures as unknown[]).length).toBe(2);
});

test('list_changed end to end: re-listed, version bumped, event with the added name, a handle obtained before works', async () => {
  const client = await connect({ mcpServers: { sink: sink('sink') } }, { listChangedDebounceMs: 20 });
  const handle = client.tool('greeter');
  await expect(handle.call()).rejects.toMatchObject({ code: ErrorCode.ToolNotFound });
  const version = client.catalogVersion;
  const changed = nextEvent(client, 'tools-changed');
  await client.callTool('add_tool', { name: 'greeter' });
  const event = await changed;
  expect(event).toMatchObject({ reason: 'list-changed', server: 'sink', added: ['greeter'], removed: [], renamed: [] });
  expect(client.catalogVersion).toBeGreaterThan(version);
  expect((await handle.call({ x: 'you' })).content[0]).toEqual({ type: 'text', text: 'greeter says you' });
});

test('list_changed that creates a collision renames the tool, and the old name still routes to it', async () => {
  const client = await connect({ mcpServers: { one: sink('one', ['lookup']), two: sink('two') } }, { listChangedDebounceMs: 20 });
  const handle = client.tool('lookup');
  expect((await handle.call({ query: 'a' })).content[0]).toEqual({ type: 'text', text: 'one/lookup: a' });
  const changed = nextEvent(client, 'tools-changed');
  await client.callTool('two__add_tool', { name: 'lookup' });
  const event = await changed;
  expect(event.renamed).toEqual([{ from: 'lookup', to: 'one__lookup' }]);
  expect(event.added).toEqual(['two__lookup']);
  expect((await handle.call({ query: 'b' })).content[0]).toEqual({ type: 'text', text: 'one/lookup: b' });
});

test('arguments are checked before sending, with a message an LLM can act on', async () => {
  const client = await connect({ mcpServers: { sink: sink('sink') } });
  const error = (await client.callTool('add', { a: 'one' }).catch((caught: unknown) => caught)) as SwitchboardError;
  expect(error.code).toBe(ErrorCode.InvalidArgument);
  expect(error.message).toBe('Tool "add" on server "sink" was not called: invalid arguments: `b` is required but missing; `a` must be of type number. Fix the arguments and call again.');
  expect(error.details.retryable).toBe(false);
  // Nothing reached the server.
  expect((await client.callTool('count', {})).content[0]).toEqual({ type: 'text', text: '0' });
});

test('failed calls say what happened and whether retrying helps', async () => {
  const client = await connect({ mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'ok'] } } }, { retryFailedServers: false });
  const timeout = (await client.callTool('hang', {}, { timeoutMs: 300 }).catch((caught: unknown) => caught)) as SwitchboardError;
  expect(timeout.code).toBe(ErrorCode.RequestTimeout);
  expect(timeout.message).toBe('Tool "hang" on server "fault" failed: the server did not answer within the time limit. Retrying may help.');
  const unknown = (await client.callTool('ech', {}).catch((caught: unknown) => caught)) as SwitchboardError;
  expect(unknown.code).toBe(ErrorCode.ToolNotFound);
  expect(unknown.message).toContain('Did you mean "echo"');
  const died = (await client.callTool('die', {}).catch((caught: unknown) => caught)) as SwitchboardError;
  expect(died.code).toBe(ErrorCode.ServerDisconnected);
  expect(died.message).toMatch(/^Tool "die" on server "fault" failed: the server is not connected .*Retrying may help once the server has restarted\.$/);
});

test('include / exclude', async () => {
  const client = await connect({ mcpServers: { sink: sink('sink', [], { include: ['e*', 'a*'], exclude: ['add_tool'] }) } });
  expect(client.listTools().map((tool) => tool.originalName)).toEqual(['echo', 'add', 'audio']);
  expect(client.catalogReport().tools.filtered).toContainEqual({ server: 'sink', originalName: 'add_tool', by: 'exclude' });
});

test('resources and prompts across two servers, namespaced and routed', async () => {
  const client = await connect({ mcpServers: { one: sink('one'), two: sink('two') } });
  const resources = client.listResources();
  expect(resources.map((resource) => resource.server)).toEqual(['one', 'two']);
  // Both offer memo://readme: the URIs are rewritten so each stays reachable.
  expect(new Set(resources.map((resource) => resource.uri)).size).toBe(2);
  for (const resource of resources) {
    const read = await client.readResource(resource.uri);
    expect(read.contents[0]).toMatchObject({ text: `readme of ${resource.server}` });
  }
  expect(client.catalogReport().resources.collisions).toEqual([{ uri: 'memo://readme', servers: ['one', 'two'] }]);
  // A template URI served by both needs a server.
  await expect(client.readResource('memo://notes/1')).rejects.toMatchObject({ code: ErrorCode.InvalidArgument });
  expect((await client.readResource('memo://notes/1', { server: 'two' })).contents[0]).toMatchObject({ text: 'note 1' });
  expect(client.listPrompts().map((prompt) => prompt.name)).toEqual(['one__greet', 'two__greet']);
  const prompt = await client.getPrompt('two__greet', { who: 'Bo' });
  expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to Bo from two.' });
});

test('events: call start/end with duration, progress, server logs, state changes', async () => {
  const client = await connect({ mcpServers: { sink: sink('sink') } });
  const events: string[] = [];
  client.on('tool-call-start', ({ name, server }) => events.push(`start ${name}@${server}`));
  client.on('tool-progress', ({ progress }) => events.push(`progress ${progress}`));
  client.on('tool-call-end', ({ name, ok, isError, durationMs }) => events.push(`end ${name} ok=${ok} isError=${isError} timed=${durationMs > 0}`));
  const logged = nextEvent(client, 'server-log', (event) => event.source === 'mcp');
  await client.callTool('sleep', { ms: 60 }, { onProgress: () => {} });
  await client.callTool('fail', {});
  await client.callTool('log', { message: 'hello log' });
  expect(events).toEqual([
    'start sleep@sink',
    'progress 1',
    'progress 2',
    'end sleep ok=true isError=false timed=true',
    'start fail@sink',
    'end fail ok=false isError=true timed=true',
    'start log@sink',
    'end log ok=true isError=false timed=true',
  ]);
  expect(await logged).toMatchObject({ server: 'sink', level: 'warning', data: { message: 'hello log' }, source: 'mcp' });
  const states: string[] = [];
  client.on('server-state-change', ({ server, to }) => states.push(`${server}:${to}`));
  await client.close();
  expect(states).toEqual(['sink:closed']);
});

test('a server that failed at start is retried in the background and joins the tool set', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'sb-fail-once-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const marker = join(folder, 'started-once');
  const client = await connect(
    { mcpServers: { flaky: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'fail-once', '--marker', marker] }, stable: sink('stable', [], { include: ['echo'] }) } },
    { retryDelayMs: 100 },
  );
  expect(client.status().find((server) => server.name === 'flaky')).toMatchObject({
    state: 'failed',
    error: { code: ErrorCode.ServerStartFailed, message: expect.stringContaining('exited with code 3') },
  });
  // flaky's tools are not known yet: names stay prefixed, so no bare name can later become flaky's.
  expect(client.listTools().map((tool) => tool.name)).toEqual(['stable__echo']);
  const joined = await nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up');
  expect(joined.server).toBe('flaky');
  expect(joined.added).toContain('hang');
  expect(client.status().find((server) => server.name === 'flaky')?.state).toBe('ready');
  expect((await client.callTool('flaky__echo', { message: 'back' })).content[0]).toEqual({ type: 'text', text: 'back' });
  expect(client.getTool('stable__echo')?.server).toBe('stable');
});

test('a server that connected but whose tools/list failed at start is retried in the background and joins the tool set', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'sb-list-once-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  const marker = join(folder, 'listed-once');
  const client = await connect(
    { mcpServers: { flaky: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'tools-list-error-once', '--marker', marker] }, stable: sink('stable', [], { include: ['echo'] }) } },
    { retryDelayMs: 100 },
  );
  expect(client.status().find((server) => server.name === 'flaky')).toMatchObject({ state: 'failed', error: { message: expect.stringContaining('the tool registry is not loaded yet') } });
  const joined = await nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up');
  expect(joined.server).toBe('flaky');
  expect(joined.added).toContain('flaky__echo');
  expect(client.status().find((server) => server.name === 'flaky')).toMatchObject({ state: 'ready' });
  expect((await client.callTool('flaky__echo', { message: 'listed' })).content[0]).toEqual({ type: 'text', text: 'listed' });
});

test('reconfigure: unchanged servers keep their process and stats; removed ones finish their calls and end; added and changed ones start', async () => {
  const client = await connect({ mcpServers: { keep: sink('keep', ['kept_tool']), gone: sink('gone', ['gone_tool']), change: sink('change', ['old_tool']) } });
  const pidOf = (name: string): number | undefined => client.status().find((server) => server.name === name)?.pid;
  const [keepPid, gonePid, changePid] = [pidOf('keep'), pidOf('gone'), pidOf('change')];
  expect((await client.callTool('kept_tool', {})).isError).toBe(false);
  // A call still running on the server that goes away.
  const running = client.callTool('gone__sleep', { ms: 400 });
  const events: Array<MultiServerClientEvents['tools-changed']> = [];
  client.on('tools-changed', (event) => events.push(event));
  const result = await client.reconfigure({ mcpServers: { keep: sink('keep', ['kept_tool']), change: sink('change', ['new_tool']), added: sink('added', ['added_tool']) } });
  expect(result).toEqual({ added: ['added'], removed: ['gone'], restarted: ['change'], unchanged: ['keep'] });
  // One event says everything that changed.
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ reason: 'reload' });
  expect(events[0]?.added).toEqual(expect.arrayContaining(['new_tool', 'added_tool']));
  expect(events[0]?.removed).toEqual(expect.arrayContaining(['gone_tool', 'old_tool', 'gone__sleep']));
  expect(client.status().map((server) => [server.name, server.state])).toEqual([['keep', 'ready'], ['change', 'ready'], ['added', 'ready']]);
  expect(pidOf('keep')).toBe(keepPid);
  expect(pidOf('change')).not.toBe(changePid);
  expect(client.stats().servers.find((server) => server.server === 'keep')?.calls).toBe(1);
  expect((await client.callTool('new_tool', {})).isError).toBe(false);
  expect((await client.callTool('added_tool', {})).isError).toBe(false);
  // The removed server's call finishes on it; then its process ends, and so does the replaced one.
  expect((await running).isError).toBe(false);
  await expect.poll(() => [gonePid, changePid].filter((pid) => pid !== undefined && livingProcesses().some((process) => process.pid === pid)), { timeout: 10_000 }).toEqual([]);
  expect(client.stats().servers.map((server) => server.server)).not.toContain('gone');
  const unknown = await client.callTool('gone_tool', {}).catch((error: SwitchboardError) => error);
  expect(unknown).toMatchObject({ code: ErrorCode.ToolNotFound });
  // Nothing to do: no event, nothing restarted.
  const again = await client.reconfigure(client.config);
  expect(again).toEqual({ added: [], removed: [], restarted: [], unchanged: ['keep', 'change', 'added'] });
  expect(events).toHaveLength(1);
});
