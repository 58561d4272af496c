/**
 * What the built CLI says on stderr when things are normal and when they are not: no warnings for
 * servers that are fine (the real server-postgres and server-everything), `doctor` with the debug log
 * showing the handshake's messages, and `doctor` giving the same reason and hint as `tools` when a
 * server cannot be reached (Streamable HTTP and legacy SSE), and hints that name the knob used.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FAULT_SERVER, KITCHEN_SINK, bin, freePort, startHttpFixture, type HttpFixture } from '../helpers/fixtures.js';
import { runCli } from '../helpers/run-cli.js';

interface DoctorOutput {
  servers: Array<{ name: string; ok: boolean; steps: Array<{ step: string; ok: boolean; detail?: string; hint?: string }> }>;
}
interface ToolsOutput {
  servers: Array<{ name: string; state: string; error?: { code: string; message: string; hint?: string } }>;
}

let dir: string;
let streamable: HttpFixture;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-cli-diagnostics-'));
  streamable = await startHttpFixture(bin('mcp-server-everything'), ['streamableHttp']);
});
afterAll(async () => {
  await streamable?.close();
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(name: string, config: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

test('tools with the real server-postgres and server-everything: no warnings on stderr', async () => {
  const config = writeConfig('quiet.json', {
    mcpServers: {
      postgres: { command: bin('mcp-server-postgres'), args: ['postgresql://127.0.0.1:5432/postgres'], env: { PGUSER: 'postgres' }, timeout: 30 },
      everything: { command: bin('mcp-server-everything'), timeout: 30 },
    },
  });
  // Several runs: the re-list after server-everything's list_changed races with closing.
  for (let run = 0; run < 3; run++) {
    const result = await runCli(['tools', '--config', config], { timeoutMs: 60_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/postgres +ready/);
    expect(result.stdout).toMatch(/everything +ready/);
    expect(result.stderr).not.toMatch(/warn/);
  }
});

describe('doctor with the debug log', () => {
  const secret = 'doctor-secret-token-4242';
  const config = (): string =>
    writeConfig('doctor-debug.json', {
      mcpServers: {
        sink: { path: KITCHEN_SINK, env: { SINK_TOKEN: secret } },
        remote: { url: streamable.url('/mcp'), apiKey: secret },
      },
    });

  test.each([
    ['--debug', ['--debug'], {}],
    ['MCP_LOG_LEVEL=debug', [], { MCP_LOG_LEVEL: 'debug' }],
  ])('%s prints the handshake messages tagged with the server, secrets and Authorization redacted', async (_name, flags, env) => {
    const run = await runCli(['doctor', '--config', config(), ...flags], { env });
    expect(run.code, run.stderr).toBe(0);
    for (const server of ['sink', 'remote']) {
      expect(run.stderr).toMatch(new RegExp(`debug \\[${server}\\] → .*"method":"initialize"`));
      expect(run.stderr).toMatch(new RegExp(`debug \\[${server}\\] ← .*"protocolVersion":"`));
      expect(run.stderr).toMatch(new RegExp(`debug \\[${server}\\] → .*"method":"tools/list"`));
      expect(run.stderr).toMatch(new RegExp(`debug \\[${server}\\] ← .*"tools":\\[`));
    }
    expect(run.stderr).toMatch(/debug \[remote\] http request .*"authorization":"\[redacted\]"/i);
    expect(run.stderr).not.toContain(secret);
    // The diagnosis itself is still on stdout.
    expect(run.stdout).toMatch(/✓ sink/);
  });

  test('without it, doctor prints no protocol messages', async () => {
    const run = await runCli(['doctor', '--config', config()]);
    expect(run.stderr).not.toMatch(/→|←/);
  });
});

describe('an unreachable server: doctor gives the reason and hint that tools gives', () => {
  async function both(entry: Record<string, unknown>): Promise<{ doctor: { detail?: string; hint?: string }; tools: { message: string; hint?: string } }> {
    const config = writeConfig(`unreachable-${Math.random().toString(36).slice(2)}.json`, { mcpServers: { remote: { ...entry, timeout: 5 } } });
    const doctorRun = await runCli(['doctor', '--config', config, '--json']);
    expect(doctorRun.code).toBe(1);
    const step = (JSON.parse(doctorRun.stdout) as DoctorOutput).servers[0]?.steps.find((candidate) => !candidate.ok);
    expect(step?.step).toBe('connect');
    const toolsRun = await runCli(['tools', '--config', config, '--json']);
    const error = (JSON.parse(toolsRun.stdout) as ToolsOutput).servers[0]?.error;
    expect(error).toBeDefined();
    return { doctor: step ?? {}, tools: error ?? { message: '' } };
  }

  test('a port fetch refuses to use (bad port): not just "fetch failed"', async () => {
    const { doctor, tools } = await both({ url: 'http://127.0.0.1:1/mcp' });
    expect(doctor.detail).toBe('cannot reach the server (bad port)');
    expect(doctor.hint).toMatch(/check the URL/);
    expect(tools.message).toContain('cannot reach the server (bad port)');
    expect(tools.hint).toBe(doctor.hint);
  });

  test('nothing listening (Streamable HTTP): ECONNREFUSED, with the address in the hint', async () => {
    const port = await freePort();
    const { doctor, tools } = await both({ url: `http://127.0.0.1:${port}/mcp` });
    expect(doctor.detail).toBe('cannot reach the server (ECONNREFUSED)');
    expect(doctor.hint).toBe(`nothing is listening on 127.0.0.1:${port}; is the server running?`);
    expect(tools.message).toContain('cannot reach the server (ECONNREFUSED)');
    expect(tools.hint).toBe(doctor.hint);
  });

  test('nothing listening (legacy SSE): the same reason and hint', async () => {
    const port = await freePort();
    const { doctor, tools } = await both({ url: `http://127.0.0.1:${port}/sse`, transport: 'sse' });
    expect(doctor.detail).toBe('cannot reach the server (ECONNREFUSED)');
    expect(doctor.hint).toBe(`nothing is listening on 127.0.0.1:${port}; is the server running?`);
    expect(tools.message).toContain('cannot reach the server (ECONNREFUSED)');
    expect(tools.hint).toBe(doctor.hint);
  });
});

test('call --timeout: the hint names --timeout, not callTimeout', async () => {
  const config = writeConfig('timeout.json', { mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'ok'] } } });
  const human = await runCli(['call', 'hang', '--config', config, '--timeout', '0.5']);
  expect(human.code).toBe(1);
  expect(human.stderr).toContain('hint: the server may be busy or stuck; raise --timeout (0.5 s now) if the work is legitimately slow');
  expect(human.stderr).not.toContain('callTimeout');
  const json = await runCli(['call', 'hang', '--config', config, '--timeout', '0.5', '--json']);
  expect((JSON.parse(json.stdout) as { error: { code: string; hint?: string } }).error).toMatchObject({ code: 'REQUEST_TIMEOUT', hint: expect.stringContaining('raise --timeout') });
  // Without --timeout the deadline is the config's, and the hint says so.
  const configured = writeConfig('call-timeout.json', { mcpServers: { fault: { command: process.execPath, args: [FAULT_SERVER, '--mode', 'ok'], callTimeout: '500ms' } } });
  const fromConfig = await runCli(['call', 'hang', '--config', configured]);
  expect(fromConfig.stderr).toContain('raise `callTimeout`');
});
