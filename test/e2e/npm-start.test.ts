/**
 * The main job: `npm start` runs `scripts/start.mjs`, which serves the repo's demo config
 * (`switchboard.yaml`: server-everything, server-filesystem on demo/sandbox, server-memory, each named
 * by its npm package) through the gateway. Here with `--port 0`, a throwaway registry and a token from
 * the environment, so that nothing of the checkout's own `.switchboard/` is touched but the demo's
 * memory file; the MCP Inspector CLI lists the three servers' tools through the gateway, and SIGTERM
 * ends the gateway and every server process.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ROOT } from '../helpers/fixtures.js';
import { descendantsOf, isAlive, waitFor } from '../helpers/processes.js';
import { runProcess } from '../helpers/run-cli.js';

const INSPECTOR_CLI = resolve(ROOT, 'node_modules/@modelcontextprotocol/inspector-cli/build/cli.js');
const dir = mkdtempSync(join(tmpdir(), 'sb-npm-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('npm start serves the demo servers; the Inspector CLI lists their tools through the gateway; SIGTERM ends everything', async () => {
  const token = `sb_demo_${randomBytes(16).toString('hex')}`;
  const child = spawn(process.execPath, [join(ROOT, 'scripts/start.mjs'), 'serve', '--config', join(ROOT, 'switchboard.yaml'), '--port', '0', '--db', join(dir, 'registry.db')], {
    env: { ...process.env, NO_COLOR: '1', SWITCHBOARD_TOKEN: token, SWITCHBOARD_DB: undefined, SWITCHBOARD_CONFIG: undefined, MCP_LOG_LEVEL: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', (code) => resolveExit(code)));
  try {
    await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(stdout), 60_000, `the gateway banner (stderr: ${stderr.slice(-500)})`);
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)?.[1] ?? '';
    // The Inspector CLI looks for a package.json in the parent of its working folder.
    writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
    mkdirSync(join(dir, 'work'), { recursive: true });
    const list = await runProcess(process.execPath, [INSPECTOR_CLI, '--cli', `${url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${token}`, '--method', 'tools/list'], { cwd: join(dir, 'work'), timeoutMs: 45_000 });
    expect(list.code, list.stderr).toBe(0);
    const tools = (JSON.parse(list.stdout) as { tools: Array<{ name: string; description?: string }> }).tools;
    // Each demo server contributes; descriptions say which server a tool comes from.
    for (const server of ['everything', 'filesystem', 'memory']) expect(tools.some((tool) => tool.description?.startsWith(`[${server}]`)), server).toBe(true);
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['create_entities', 'list_allowed_directories']));
    const pids = descendantsOf(child.pid ?? 0).map((process) => process.pid);
    expect(pids.length).toBeGreaterThan(3);
    child.kill('SIGTERM');
    expect(await Promise.race([exited, new Promise((_, reject) => setTimeout(() => reject(new Error('npm start did not exit within 15 s')), 15_000))])).toBe(0);
    await waitFor(() => pids.every((pid) => !isAlive(pid)), 10_000, 'every server process to end');
    expect(stdout + stderr).not.toContain(token);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}, 120_000);
