/**
 * The built CLI with configs as people paste them: started from another directory (`cd /`), with an
 * unset `${VAR}` in one entry, and a VS Code `.vscode/mcp.json` with `${workspaceFolder}` and `inputs`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { KITCHEN_SINK, ROOT } from '../helpers/fixtures.js';
import { SWITCHBOARD_BIN, runCli } from '../helpers/run-cli.js';

interface ToolsJson {
  servers: Array<{ name: string; state: string; startMs?: number; error?: { code: string; message: string; hint?: string } }>;
  tools: Array<{ name: string; server: string }>;
}

// Several CLI runs of npx servers per test, on a busy machine.
vi.setConfig({ testTimeout: 180_000 });

// Inside the repository, so `npx` finds the installed servers from the config's folder (and only there).
let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(ROOT, '.tmp-config-start-')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(folder: string, config: unknown): string {
  mkdirSync(join(dir, folder), { recursive: true });
  const path = join(dir, folder, 'mcp.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

describe('cwd', () => {
  test('cd / && switchboard call --config …/mcp.json: the relative-path npx server runs in the config folder', async () => {
    // `npx --no` never installs: it finds the package only from a folder inside this repository.
    const config = writeConfig('project', { mcpServers: { fs: { command: 'npx', args: ['--no', '@modelcontextprotocol/server-filesystem', '.'], timeout: 30 } } });
    const run = await runCli(['call', 'list_allowed_directories', '--config', config, '--json'], { cwd: '/', timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { content: Array<{ text?: string }> };
    expect(result.content[0]?.text).toContain(join(dir, 'project'));
  });
});

describe('an unset ${VAR} with onServerError: skip', () => {
  test('only that server fails, with the path and what to do; the others start (exit 0)', async () => {
    const config = writeConfig('unset', {
      mcpServers: { sink: { path: KITCHEN_SINK }, remote: { url: 'https://${SB_E2E_UNSET_HOST}/mcp' } },
    });
    const run = await runCli(['tools', '--config', config, '--json'], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout) as ToolsJson;
    expect(output.servers.find((server) => server.name === 'sink')?.state).toBe('ready');
    expect(output.servers.find((server) => server.name === 'remote')).toMatchObject({
      state: 'failed',
      error: { code: 'CONFIG_INVALID', message: 'mcpServers.remote.url: environment variable SB_E2E_UNSET_HOST is not set', hint: 'set it, or write ${SB_E2E_UNSET_HOST:-default}' },
    });
    expect(output.tools.some((tool) => tool.server === 'sink')).toBe(true);
    expect(run.stderr).toContain('SB_E2E_UNSET_HOST is not set');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  test("doctor reports it as that server's failed first step, with the hint, and diagnoses the others", async () => {
    const config = writeConfig('unset-doctor', { mcpServers: { sink: { path: KITCHEN_SINK }, remote: { url: 'https://${SB_E2E_UNSET_HOST}/mcp' } } });
    const run = await runCli(['doctor', '--config', config, '--json'], { timeoutMs: 60_000 });
    const output = JSON.parse(run.stdout) as { servers: Array<{ name: string; ok: boolean; steps: Array<{ step: string; ok: boolean; detail?: string; hint?: string }> }> };
    expect(output.servers.find((server) => server.name === 'sink')?.ok).toBe(true);
    expect(output.servers.find((server) => server.name === 'remote')).toMatchObject({
      ok: false,
      steps: [{ step: 'connect', ok: false, detail: 'mcpServers.remote.url: environment variable SB_E2E_UNSET_HOST is not set', hint: 'set it, or write ${SB_E2E_UNSET_HOST:-default}' }],
    });
  });

  test('with onServerError: throw the whole config is refused (exit 2), as before', async () => {
    const config = writeConfig('unset-throw', { onServerError: 'throw', mcpServers: { sink: { path: KITCHEN_SINK }, remote: { url: 'https://${SB_E2E_UNSET_HOST}/mcp' } } });
    const run = await runCli(['tools', '--config', config, '--json'], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('mcpServers.remote.url: environment variable SB_E2E_UNSET_HOST is not set');
  });
});

/** A `.vscode/mcp.json` as VS Code's documentation writes it. */
const vscodeConfig = {
  inputs: [
    { type: 'promptString', id: 'memory-file', description: 'File the memory server keeps its graph in' },
    { type: 'promptString', id: 'github-token', description: 'GitHub Personal Access Token', password: true },
  ],
  servers: {
    files: { type: 'stdio', command: 'npx', args: ['--no', '@modelcontextprotocol/server-filesystem', '${workspaceFolder}'], timeout: 30 },
    memory: { type: 'stdio', command: 'npx', args: ['--no', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '${input:memory-file}' }, timeout: 30 },
    github: { type: 'stdio', command: 'npx', args: ['--no', '@modelcontextprotocol/server-github'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: '${input:github-token}' }, timeout: 30 },
  },
};

describe('start times', () => {
  test('tools --json gives startMs and queuedMs per started server; --verbose logs them', async () => {
    const config = writeConfig('times', { mcpServers: { sink: { path: KITCHEN_SINK }, memory: { path: '@modelcontextprotocol/server-memory', env: { MEMORY_FILE_PATH: join(dir, 'times.jsonl') } } } });
    const run = await runCli(['tools', '--config', config, '--json', '--verbose'], { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const output = JSON.parse(run.stdout) as { servers: Array<{ name: string; state: string; protocolVersion?: string; startMs?: number; queuedMs?: number }> };
    for (const server of output.servers) {
      expect(server).toMatchObject({ state: 'ready', protocolVersion: expect.any(String) });
      expect(server.startMs).toBeGreaterThan(0);
      expect(server.queuedMs).toBeGreaterThanOrEqual(0);
    }
    expect(run.stderr).toMatch(/info \[sink\] server ready startMs=\d+ queuedMs=\d+ tools=\d+/);
    expect(run.stderr).toMatch(/info \[memory\] server ready startMs=\d+/);
  });
});

describe('a pasted VS Code config', () => {
  test('${workspaceFolder} is the project folder; inputs from SWITCHBOARD_INPUT_<ID> and --input; a missing input fails just its server', async () => {
    const config = writeConfig('vscode/.vscode', vscodeConfig);
    const env = { SWITCHBOARD_INPUT_MEMORY_FILE: join(dir, 'memory.jsonl') };
    const without = await runCli(['tools', '--config', config, '--json'], { env, timeoutMs: 90_000 });
    expect(without.code, without.stderr).toBe(0);
    const first = JSON.parse(without.stdout) as ToolsJson;
    expect(first.servers.map((server) => [server.name, server.state])).toEqual([['files', 'ready'], ['memory', 'ready'], ['github', 'failed']]);
    expect(first.servers[2]?.error).toEqual({
      code: 'CONFIG_INVALID',
      message: 'servers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN: input "github-token" (GitHub Personal Access Token) has no value',
      hint: 'pass --input github-token=VALUE, set SWITCHBOARD_INPUT_GITHUB_TOKEN, or run switchboard in a terminal to be asked',
    });

    const withFlag = await runCli(['tools', '--config', config, '--json', '--input', 'github-token=ghp_not_a_real_token', '--server', 'github'], { env, timeoutMs: 60_000 });
    expect(withFlag.code, withFlag.stderr).toBe(0);
    expect((JSON.parse(withFlag.stdout) as ToolsJson).servers.map((server) => [server.name, server.state])).toEqual([['github', 'ready']]);
    expect(withFlag.stdout + withFlag.stderr).not.toContain('ghp_not_a_real_token');

    const allowed = await runCli(['call', 'list_allowed_directories', '--config', config, '--server', 'files', '--json'], { cwd: '/', timeoutMs: 60_000 });
    expect(allowed.code, allowed.stderr).toBe(0);
    // ${workspaceFolder} of a .vscode/mcp.json is the project folder, as in VS Code.
    const text = (JSON.parse(allowed.stdout) as { content: Array<{ text?: string }> }).content[0]?.text ?? '';
    expect(text).toContain(join(dir, 'vscode'));
    expect(text).not.toContain('.vscode');
  });

  test('--input without ID=VALUE is a usage error (exit 2)', async () => {
    const config = writeConfig('vscode-bad', vscodeConfig);
    const run = await runCli(['tools', '--config', config, '--input', 'github-token'], { timeoutMs: 30_000 });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('expected ID=VALUE');
  });

  test('on a terminal the input is asked for, masked for password: true (driven through script(1))', async () => {
    const config = writeConfig('vscode-tty', { inputs: vscodeConfig.inputs, servers: { github: vscodeConfig.servers.github } });
    const command = [process.execPath, SWITCHBOARD_BIN, 'tools', '--config', config].map((word) => `'${word}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', SWITCHBOARD_CONFIG: undefined }, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('GitHub Personal Access Token (github-token, for github): ')) resolve();
        });
        child.once('exit', () => reject(new Error(`exited before asking:\n${output}`)));
      });
      child.stdin.write('ghp_typed_secret\r');
      expect(await exited).toBe(0);
    } finally {
      clearTimeout(timer);
      child.kill('SIGKILL');
    }
    expect(output).toContain('****************');
    expect(output).not.toContain('ghp_typed_secret');
    expect(output).toMatch(/✓ github\s+ready/);
  });
});
