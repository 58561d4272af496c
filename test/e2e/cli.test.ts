/**
 * The built CLI (`bin/switchboard.js`, dist/) against real servers: `tools`, `call` and `doctor` as a
 * user runs them, with their JSON contracts, exit codes and hints.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAULT_SERVER, FIXTURES, KITCHEN_SINK, PYTHON_SERVER, bin, freePort, startHttpFixture, type HttpFixture } from '../helpers/fixtures.js';
import { runCli } from '../helpers/run-cli.js';

const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

let dir: string;
let streamable: HttpFixture;
let sse: HttpFixture;
const httpServers: Server[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-cli-'));
  [streamable, sse] = await Promise.all([
    startHttpFixture(bin('mcp-server-everything'), ['streamableHttp']),
    startHttpFixture(bin('mcp-server-everything'), ['sse']),
  ]);
});
afterAll(async () => {
  await Promise.all([streamable?.close(), sse?.close(), ...httpServers.map((server) => new Promise((resolve) => server.close(resolve)))]);
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(name: string, config: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}
const fault = (mode: string, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [FAULT_SERVER, '--mode', mode], ...extra });

async function statusServer(status: number, headers: Record<string, string> = {}): Promise<string> {
  const server = createServer((_request, response) => response.writeHead(status, headers).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  httpServers.push(server);
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/mcp`;
}

describe('switchboard tools', () => {
  test('--json lists the tools of a .py, an npm package, a .js, an HTTP and an SSE-only server in one config', async () => {
    const config = writeConfig('five.json', {
      mcpServers: {
        python: { path: PYTHON_SERVER },
        memory: { path: '@modelcontextprotocol/server-memory', env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }, timeout: 30 },
        sink: { path: KITCHEN_SINK },
        remote: { url: streamable.url('/mcp') },
        legacy: { url: sse.url('/sse') },
      },
    });
    const run = await runCli(['tools', '--config', config, '--json'], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout) as { servers: Array<{ name: string; state: string; transport?: string; protocolVersion?: string }>; tools: Array<{ name: string; server: string; originalName: string; inputSchema: unknown }> };
    expect(output.servers.map((server) => [server.name, server.state, server.transport])).toEqual([
      ['python', 'ready', 'stdio'],
      ['memory', 'ready', 'stdio'],
      ['sink', 'ready', 'stdio'],
      ['remote', 'ready', 'http'],
      ['legacy', 'ready', 'sse'],
    ]);
    for (const server of output.servers) expect(server.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const servers = new Set(output.tools.map((tool) => tool.server));
    expect([...servers].sort()).toEqual(['legacy', 'memory', 'python', 'remote', 'sink']);
    expect(output.tools.find((tool) => tool.originalName === 'reverse')).toMatchObject({ name: 'reverse', server: 'python', inputSchema: { type: 'object' } });
    expect(output.tools.find((tool) => tool.originalName === 'read_graph')?.server).toBe('memory');
    // echo is offered by python, sink, remote and legacy: all prefixed.
    expect(output.tools.filter((tool) => tool.originalName === 'echo').map((tool) => tool.name).sort()).toEqual(['legacy__echo', 'python__echo', 'remote__echo', 'sink__echo']);
  });

  test('one server hanging at start (timeout: 2) among four: the others are listed within its deadline, it is failed with a hint', async () => {
    const config = writeConfig('hang.json', {
      mcpServers: {
        a: { path: KITCHEN_SINK },
        b: { path: PYTHON_SERVER },
        c: { path: `${KITCHEN_SINK} --name c` },
        d: { url: streamable.url('/mcp') },
        hang: fault('never-initialize', { timeout: 2 }),
      },
    });
    const run = await runCli(['tools', '--config', config, '--json']);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { servers: Array<{ name: string; state: string; error?: { code: string; message: string; hint?: string } }>; tools: Array<{ server: string }> };
    expect(output.servers.filter((server) => server.state === 'ready').map((server) => server.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(output.servers.find((server) => server.name === 'hang')).toMatchObject({
      state: 'failed',
      error: { code: 'SERVER_START_FAILED', message: 'server "hang" did not complete the handshake within 2 s', hint: expect.stringContaining('raise `timeout`') },
    });
    expect(new Set(output.tools.map((tool) => tool.server))).toEqual(new Set(['a', 'b', 'c', 'd']));
    // Bounded by the hanging server's deadline, not by the sum of the servers (loose bound: shared CI).
    expect(run.outputMs).toBeLessThan(6_000);
  });

  test('human output names renames and collisions; exit 1 when no server is reachable', async () => {
    const ok = await runCli(['tools', '--config', writeConfig('pair.json', { mcpServers: { one: { path: KITCHEN_SINK }, two: { path: `${KITCHEN_SINK} --name two` } } })]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('"echo" is offered by one, two');
    expect(ok.stdout).toContain('one: echo → one__echo (prefixed)');
    const none = await runCli(['tools', '--config', writeConfig('none.json', { mcpServers: { broken: fault('exit-at-start') } })]);
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('exited with code 3 during start-up');
  });

  test('a server\'s escape sequences are shown, not acted on: the terminal is not cleared or recoloured', async () => {
    const run = await runCli(['tools', '--config', writeConfig('noisy.json', { mcpServers: { deep: { command: process.execPath, args: [`${FIXTURES}/deep-server.mjs`] } } })]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Clears\\x1b[2J\\x1b[31m the screen\\x07 and fakes a line');
    expect(run.stdout).not.toMatch(/\p{Cc}(?<!\n)/u);
  });
});

describe('switchboard call', () => {
  const config = () => writeConfig('sink.json', { mcpServers: { sink: { path: KITCHEN_SINK } } });

  test('image and audio items come back intact in --json', async () => {
    const image = await runCli(['call', 'image', '--config', config(), '--json']);
    expect(image.code, image.stderr).toBe(0);
    expect(JSON.parse(image.stdout)).toEqual({ isError: false, content: [{ type: 'image', data: TINY_PNG, mimeType: 'image/png' }] });
    const mixed = JSON.parse((await runCli(['call', 'mixed', '--config', config(), '--json'])).stdout) as { content: Array<{ type: string; data?: string }> };
    expect(mixed.content.map((item) => item.type)).toEqual(['text', 'image', 'audio', 'resource', 'resource_link', 'text']);
    expect(Buffer.from(mixed.content[2]?.data ?? '', 'base64').subarray(0, 4).toString()).toBe('RIFF');
  });

  test('arguments, human output, exit 1 when the tool reports an error', async () => {
    const echo = await runCli(['call', 'echo', '--config', config(), '--args', '{"message":"hi there"}']);
    expect(echo).toMatchObject({ code: 0, stdout: 'hi there\n' });
    const image = await runCli(['call', 'image', '--config', config()]);
    expect(image.stdout).toBe('[image image/png, 70 B]\n');
    const fail = await runCli(['call', 'fail', '--config', config(), '--args', '{"reason":"x"}', '--json']);
    expect(fail.code).toBe(1);
    expect(JSON.parse(fail.stdout)).toEqual({ isError: true, content: [{ type: 'text', text: 'failed: x' }] });
  });

  test('usage and config mistakes exit 2 with a clear message and no stack trace', async () => {
    const badArgs = await runCli(['call', 'echo', '--config', config(), '--args', '{not json']);
    expect(badArgs.code).toBe(2);
    expect(badArgs.stderr).toContain('--args must be a JSON object');
    const arrayArgs = await runCli(['call', 'echo', '--config', config(), '--args', '[1]']);
    expect(arrayArgs).toMatchObject({ code: 2, stderr: expect.stringContaining('got an array') });
    const badConfig = await runCli(['call', 'echo', '--config', writeConfig('bad.json', { mcpServers: { x: { url: 'nope', apiKey: 'sk-secret-999' } } })]);
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toContain('mcpServers.x.url: is not a valid URL');
    expect(badConfig.stderr).not.toContain('sk-secret-999');
    expect(badConfig.stderr).not.toMatch(/\n\s+at /);
    const unknownCommand = await runCli(['frobnicate']);
    expect(unknownCommand).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "frobnicate"') });
  });

  test('an unknown tool and invalid arguments fail with exit 1 and an actionable message', async () => {
    const unknown = await runCli(['call', 'ech', '--config', config()]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('TOOL_NOT_FOUND');
    expect(unknown.stderr).toContain('Did you mean "echo"');
    const invalid = await runCli(['call', 'add', '--config', config(), '--args', '{"a":1}']);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('`b` is required but missing');
  });
});

describe('switchboard doctor', () => {
  interface Step { step: string; ok: boolean; ms: number; detail?: string; hint?: string }
  async function doctor(entry: Record<string, unknown>): Promise<{ code: number | null; steps: Step[] }> {
    const run = await runCli(['doctor', '--config', writeConfig(`doctor-${Math.random()}.json`, { mcpServers: { target: entry } }), '--json']);
    const output = JSON.parse(run.stdout) as { servers: Array<{ name: string; ok: boolean; steps: Step[] }> };
    return { code: run.code, steps: output.servers[0]?.steps ?? [] };
  }
  const failing = (steps: Step[]): Step | undefined => steps.find((step) => !step.ok);

  test('a healthy server passes every step', async () => {
    const { code, steps } = await doctor({ path: KITCHEN_SINK });
    expect(code).toBe(0);
    expect(steps.map((step) => `${step.step}:${step.ok}`)).toEqual(['spawn:true', 'initialize:true', 'initialized:true', 'list-tools:true', 'ping:true']);
    expect(steps[1]?.detail).toContain('protocol 2025-11-25');
  });

  test.each([
    ['command not found', { command: 'no-such-command-xyz' }, 'spawn', /command not found/, /PATH/],
    ['process exits at start (with its stderr)', fault('exit-at-start'), 'spawn', /exited with code 3[\s\S]*FAULT_TOKEN is not set/, /run it by hand/],
    ['no answer to initialize', fault('never-initialize', { timeout: 1 }), 'initialize', /no answer to initialize within 1 s/, /raise `timeout`/],
    ['unsupported protocol version', fault('bad-version'), 'initialize', /1999-01-01; this client speaks 2025-11-25/, /upgrade/],
    ['tools/list failing', fault('tools-list-error'), 'list-tools', /tools\/list failed: internal error/, /report it/],
    ['tools/list empty', fault('no-tools'), 'list-tools', /lists no tools/, /environment variables/],
  ])('%s: the failing step and its hint', async (_name, entry, step, detail, hint) => {
    const { code, steps } = await doctor(entry);
    expect(code).toBe(1);
    expect(failing(steps)).toMatchObject({ step, ok: false, detail: expect.stringMatching(detail), hint: expect.stringMatching(hint) });
  });

  test('a slow step is flagged', async () => {
    const { code, steps } = await doctor(fault('slow-initialize', { timeout: 10 }));
    expect(code).toBe(0);
    expect(steps.find((step) => step.step === 'initialize')).toMatchObject({ ok: true, hint: expect.stringMatching(/^slow: \d+ ms$/) });
  });

  test('HTTP: 401, 404 (with the SSE hint), nothing listening, and an SSE-only server found by fallback', async () => {
    const unauthorized = await doctor({ url: await statusServer(401, { 'WWW-Authenticate': 'Bearer' }) });
    expect(failing(unauthorized.steps)).toMatchObject({ step: 'connect', detail: expect.stringContaining('401'), hint: expect.stringContaining('apiKey') });
    const notFound = await doctor({ url: await statusServer(404) });
    expect(failing(notFound.steps)).toMatchObject({ step: 'connect', detail: expect.stringContaining('Streamable HTTP answered 404'), hint: expect.stringContaining('/sse') });
    const refused = await doctor({ url: `http://127.0.0.1:${await freePort()}/mcp` });
    expect(failing(refused.steps)).toMatchObject({ step: 'connect', detail: expect.stringContaining('ECONNREFUSED'), hint: expect.stringContaining('nothing is listening') });
    const legacy = await doctor({ url: sse.url('/sse') });
    expect(legacy.code).toBe(0);
    expect(legacy.steps[0]).toMatchObject({ step: 'connect', ok: true, detail: expect.stringContaining('legacy SSE'), hint: expect.stringContaining('transport: sse') });
  });

  test('human output and an unknown server name', async () => {
    const config = writeConfig('doctor-human.json', { mcpServers: { broken: fault('exit-at-start'), fine: { path: PYTHON_SERVER } } });
    const run = await runCli(['doctor', '--config', config]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ broken\n {2}✗ spawn/);
    expect(run.stdout).toContain('hint: run it by hand');
    expect(run.stdout).toContain('✓ fine');
    const unknown = await runCli(['doctor', 'nope', '--config', config]);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown server "nope"') });
  });
});

test('--debug prints every JSON-RPC message tagged with the server, with secrets redacted', async () => {
  const secret = 'very-secret-token-4242';
  const config = writeConfig('debug.json', {
    mcpServers: {
      sink: { path: KITCHEN_SINK, env: { SINK_TOKEN: secret } },
      remote: { url: streamable.url('/mcp'), apiKey: secret },
    },
  });
  const run = await runCli(['call', 'sink__echo', '--config', config, '--args', JSON.stringify({ message: `echo ${secret}` }), '--debug']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toMatch(/debug \[sink\] → .*"method":"initialize"/);
  expect(run.stderr).toMatch(/debug \[sink\] ← .*"protocolVersion":"2025-11-25"/);
  expect(run.stderr).toMatch(/debug \[sink\] spawning server .*envKeys=\["SINK_TOKEN"\]/);
  expect(run.stderr).not.toContain(secret);
  // MCP_LOG_LEVEL=debug does the same (`tools` starts every server; a `call` may start only the tool's).
  const viaEnv = await runCli(['tools', '--config', config], { env: { MCP_LOG_LEVEL: 'debug' } });
  expect(viaEnv.stderr).toMatch(/debug \[sink\] → /);
  expect(viaEnv.stderr).toMatch(/debug \[remote\] http request .*"authorization":"\[redacted\]"/i);
  expect(viaEnv.stderr).not.toContain(secret);
});

test('switchboard stats --call measures a tool: counts, error rate, percentiles', async () => {
  const config = writeConfig('stats.json', { mcpServers: { sink: { path: KITCHEN_SINK } } });
  const run = await runCli(['stats', '--config', config, '--call', 'fail', '--repeat', '6', '--concurrency', '3', '--json']);
  expect(run.code, run.stderr).toBe(0);
  const output = JSON.parse(run.stdout) as { servers: Array<{ server: string; calls: number; ok: number; toolErrors: number; errorRate: number; latency: { count: number; p50: number; p95: number }; tools: Array<{ tool: string; calls: number }> }> };
  expect(output.servers[0]).toMatchObject({ server: 'sink', calls: 6, ok: 0, toolErrors: 6, errorRate: 1, latency: { count: 6 } });
  expect(output.servers[0]?.latency.p95).toBeGreaterThanOrEqual(output.servers[0]?.latency.p50 ?? Infinity);
  expect(output.servers[0]?.tools).toEqual([expect.objectContaining({ tool: 'fail', calls: 6 })]);
  const table = await runCli(['stats', '--config', config, '--call', 'echo', '--args', '{"message":"x"}', '--repeat', '3']);
  expect(table.stdout).toMatch(/^server \/ tool +state +calls +ok +refused +err% +p50 ms/);
  expect(table.stdout).toMatch(/\n {2}echo +3 +3 +0 +0\.0/);
  const noGateway = await runCli(['stats', '--url', `http://127.0.0.1:${await freePort()}`]);
  expect(noGateway).toMatchObject({ code: 1, stderr: expect.stringContaining('no gateway answers') });
});
