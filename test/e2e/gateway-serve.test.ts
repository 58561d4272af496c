/**
 * `switchboard serve` as people run it: the built CLI in its own folder, a real config, the embedded
 * SQLite registry. The first start creates the admin token, prints it once and writes it to
 * `.switchboard/token` (0600); the MCP Inspector CLI lists and calls tools over HTTP with it;
 * `switchboard stats` reads the gateway; SIGTERM during a slow call lets it finish, ends every server
 * process and exits 0; a restart does not mint another token; SWITCHBOARD_TOKEN sets the admin token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KITCHEN_SINK, ROOT } from '../helpers/fixtures.js';
import { connectV2 } from '../helpers/gateway.js';
import { descendantsOf, isAlive, waitFor } from '../helpers/processes.js';
import { SWITCHBOARD_BIN, runCli, runProcess } from '../helpers/run-cli.js';

const INSPECTOR_CLI = resolve(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');

interface ServeProcess {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts `switchboard serve` and waits for its banner. */
async function startServe(cwd: string, args: string[], env: Record<string, string | undefined> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [SWITCHBOARD_BIN, 'serve', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', SWITCHBOARD_TOKEN: undefined, SWITCHBOARD_DB: undefined, SWITCHBOARD_CONFIG: undefined, MCP_LOG_LEVEL: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  let code: number | null | undefined;
  void exited.then((value) => (code = value));
  await waitFor(() => {
    if (code !== undefined) throw new Error(`serve exited with ${code}\nstdout: ${stdout}\nstderr: ${stderr}`);
    return /listening on http:\/\/127\.0\.0\.1:\d+/.test(stdout);
  }, 20_000, 'the gateway banner');
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
  return { child, url, stdout: () => stdout, stderr: () => stderr, exited };
}

async function stop(serve: ServeProcess): Promise<number | null> {
  if (serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill('SIGTERM');
  return Promise.race([serve.exited, new Promise<null>((_, reject) => setTimeout(() => reject(new Error('serve did not exit within 15 s')), 15_000))]);
}

/** Runs the MCP Inspector CLI (from a folder whose parent has a package.json: 1.0.3 looks for its own there). */
function inspector(cwd: string, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runProcess(process.execPath, [INSPECTOR_CLI, ...args], { cwd, label: `inspector ${args.join(' ')}` });
}

let dir: string;
let work: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-serve-'));
  // The inspector CLI needs a package.json in the parent of its working folder.
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
  work = join(dir, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'switchboard.yaml'), `mcpServers:\n  sink:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(KITCHEN_SINK)}]\n`);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the first start, clients, stats and SIGTERM', () => {
  let serve: ServeProcess;
  let token: string;
  beforeAll(async () => {
    serve = await startServe(work, ['--config', 'switchboard.yaml']);
    token = /admin token\s+(sb_\S+)/.exec(serve.stdout())?.[1] ?? '';
  }, 30_000);
  afterAll(async () => {
    if (serve !== undefined && serve.child.exitCode === null) await stop(serve);
  });

  test('prints the URL, the token once, the login link and how to connect clients; the token file is private', () => {
    expect(token).toMatch(/^sb_[0-9a-f]{12}_/);
    const out = serve.stdout();
    expect(out).toContain(`MCP endpoint   ${serve.url}/mcp`);
    expect(out).toContain(`dashboard      ${serve.url}/#token=${token}`);
    expect(out).toContain('"command":"npx","args":["--prefix"');
    expect(out).toContain('"serve","--stdio"');
    // Started by a client from anywhere (Claude Desktop starts servers in /), it runs here.
    expect(out).toContain(`"cwd":${JSON.stringify(realpathSync(work))}`);
    expect(out).toContain(`npx @modelcontextprotocol/inspector-cli --cli ${serve.url}/mcp --transport http`);
    const tokenFile = join(work, '.switchboard', 'token');
    expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    // Logs are JSON lines on stderr, and never carry the token.
    expect(serve.stderr()).toContain('"msg":"gateway listening"');
    expect(serve.stderr()).not.toContain(token);
  });

  test('the MCP Inspector CLI lists and calls tools over HTTP with the token', async () => {
    const list = await inspector(work, ['--cli', `${serve.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, '--method', 'tools/list']);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'add', 'sleep']));
    const call = await inspector(work, ['--cli', `${serve.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, '--method', 'tools/call', '--tool-name', 'echo', '--tool-arg', 'message=inspected']);
    expect(call.code, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({ content: [{ type: 'text', text: 'inspected' }] });
    const refused = await inspector(work, ['--cli', `${serve.url}/mcp`, '--transport', 'http', '--method', 'tools/list']);
    expect(refused.code).not.toBe(0);
  }, 60_000);

  test('switchboard stats reads /api/stats with the token from .switchboard/token, refused calls included', async () => {
    // One call sent, two refused before sending: invalid arguments (a known tool) and an unknown tool.
    const client = await connectV2(new URL(`${serve.url}/mcp`), token, 'legacy');
    try {
      expect((await client.callTool({ name: 'echo', arguments: { message: 'sent' } })).isError).toBeFalsy();
      expect((await client.callTool({ name: 'add', arguments: { a: 1 } })).isError).toBe(true);
      await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow('no-such-tool');
    } finally {
      await client.close();
    }
    const stats = await runCli(['stats', '--json'], { cwd: work, env: { SWITCHBOARD_URL: serve.url, SWITCHBOARD_TOKEN: undefined } });
    expect(stats.code, stats.stderr).toBe(0);
    const body = JSON.parse(stats.stdout) as { refused: Record<string, number>; servers: Array<{ server: string; calls: number; refused: Record<string, number>; tools: Array<{ tool: string; ok: number; refused: Record<string, number> }> }> };
    expect(body.servers[0]).toMatchObject({ server: 'sink', refused: { INVALID_ARGUMENT: 1 } });
    expect(body.servers[0]?.tools.find((tool) => tool.tool === 'echo')?.ok).toBeGreaterThanOrEqual(1);
    expect(body.servers[0]?.tools.find((tool) => tool.tool === 'add')?.refused).toEqual({ INVALID_ARGUMENT: 1 });
    expect(body.refused).toEqual({ INVALID_ARGUMENT: 1, TOOL_NOT_FOUND: 1 });
    const table = await runCli(['stats'], { cwd: work, env: { SWITCHBOARD_URL: serve.url, SWITCHBOARD_TOKEN: undefined } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^server \/ tool +state +calls +ok +refused +err%/);
    expect(table.stdout).toMatch(/\n {2}add +1 +0 +1 +100\.0 +- /);
    expect(table.stdout).toContain('refused before sending, by code:\n  sink: INVALID_ARGUMENT × 1\n  (no server): TOOL_NOT_FOUND × 1');
    const refused = await runCli(['stats', '--url', serve.url, '--token', 'sb_000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'], { cwd: work });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refused the token (HTTP 401)');
  });

  test('SIGTERM during a slow call: the call finishes, every server process ends, exit code 0', async () => {
    const client = await connectV2(new URL(`${serve.url}/mcp`), token, 'legacy');
    const pid = serve.child.pid ?? 0;
    const children = descendantsOf(pid);
    expect(children.some((child) => child.cmdline.includes(KITCHEN_SINK))).toBe(true);
    try {
      let running = false;
      const call = client.callTool({ name: 'sleep', arguments: { ms: 1_500 } }, { onprogress: () => (running = true) });
      // The first progress notification says the upstream is working on it.
      await waitFor(() => running, 5_000, 'the call to be running upstream');
      serve.child.kill('SIGTERM');
      expect(await call).toMatchObject({ content: [{ type: 'text', text: 'slept 1500 ms' }] });
      expect(await serve.exited).toBe(0);
      await waitFor(() => children.every((child) => !isAlive(child.pid)), 5_000, 'the server processes to exit');
      expect(serve.stderr()).toContain('"msg":"stopped"');
    } finally {
      await client.close().catch(() => {});
    }
  }, 30_000);
});

describe('later starts and SWITCHBOARD_TOKEN', () => {
  test('a restart finds the token file: no new token is minted or announced', async () => {
    const serve = await startServe(work, ['--config', 'switchboard.yaml']);
    try {
      expect(serve.stdout()).not.toContain('shown once');
      const token = readFileSync(join(work, '.switchboard', 'token'), 'utf8').trim();
      expect(serve.stdout()).toContain(`#token=${token}`);
      const me = await fetch(`${serve.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(await me.json()).toMatchObject({ user: { name: 'admin', admin: true } });
    } finally {
      expect(await stop(serve)).toBe(0);
    }
  }, 30_000);

  test('SWITCHBOARD_TOKEN sets the admin token of a new registry, and is not printed', async () => {
    const fresh = join(dir, 'fresh');
    mkdirSync(fresh);
    const chosen = 'ci-0123456789abcdef0123456789abcdef-token';
    const serve = await startServe(fresh, [], { SWITCHBOARD_TOKEN: chosen });
    try {
      expect(serve.stdout()).not.toContain(chosen);
      expect(serve.stdout()).toContain('Bearer $SWITCHBOARD_TOKEN');
      const me = await fetch(`${serve.url}/api/me`, { headers: { authorization: `Bearer ${chosen}` } });
      expect(me.status).toBe(200);
    } finally {
      expect(await stop(serve)).toBe(0);
    }
  }, 30_000);
});

describe('start-up mistakes', () => {
  test('a port in use, a bad port and a broken config say so and exit non-zero', async () => {
    const serve = await startServe(work, ['--config', 'switchboard.yaml']);
    try {
      const port = new URL(serve.url).port;
      const busy = await runCli(['serve', '--config', 'switchboard.yaml', '--port', port], { cwd: work });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`port ${port} on 127.0.0.1 is in use`);
    } finally {
      await stop(serve);
    }
    expect((await runCli(['serve', '--port', '70000'], { cwd: work })).stderr).toContain('--port must be a whole number from 0 to 65535');
    writeFileSync(join(work, 'broken.yaml'), 'mcpServers:\n  x:\n    url: 42\n');
    const broken = await runCli(['serve', '--config', 'broken.yaml', '--port', '0'], { cwd: work });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('mcpServers.x');
    expect((await runCli(['serve', '--stdio', '--port', '1234'], { cwd: work })).code).toBe(2);
    const unknownLimit = await runCli(['serve', '--port', '0', '--limit', 'maxSessionz=3'], { cwd: work });
    expect(unknownLimit.code).toBe(2);
    expect(unknownLimit.stderr).toContain('--limit maxSessionz=3: unknown limit "maxSessionz"; one of maxSessionsPerUser,');
  }, 60_000);
});

describe('--limit', () => {
  test('--limit headersTimeoutMs=1000 closes a connection that never finishes its headers within the deadline', async () => {
    const serve = await startServe(work, ['--config', 'switchboard.yaml', '--limit', 'headersTimeoutMs=1000', '--limit', 'requestTimeoutMs=2000']);
    try {
      const url = new URL(serve.url);
      const started = Date.now();
      const socket = connect(Number(url.port), url.hostname, () => socket.write('GET /api/me HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      await new Promise<void>((done, fail) => {
        socket.once('close', () => done());
        socket.once('error', fail);
      });
      expect(answer).toContain('408');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await stop(serve);
    }
  }, 60_000);

  test('--limit maxListenStreamsPerUser=1 refuses a second subscriptions/listen stream of one user with 429', async () => {
    const token = `sb_listen_${'x'.repeat(32)}`;
    const serve = await startServe(work, ['--config', 'switchboard.yaml', '--limit', 'maxListenStreamsPerUser=1'], { SWITCHBOARD_TOKEN: token });
    try {
      const client = await connectV2(new URL(`${serve.url}/mcp`), token, 'auto');
      try {
        const first = await client.listen({ toolsListChanged: true });
        await expect(client.listen({ toolsListChanged: true })).rejects.toThrow('has 1 open subscriptions/listen streams, the most allowed per user (maxListenStreamsPerUser)');
        await first.close();
      } finally {
        await client.close();
      }
    } finally {
      await stop(serve);
    }
  }, 60_000);
});
