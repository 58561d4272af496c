/**
 * Tasks (MCP 2025-11-25) in the library, against a server on the SDK's own task runtime
 * (task-server.mjs: SDK v1 `registerToolTask`, a file-backed task store so tasks outlive its
 * process). A plain callTool of a tool that requires a task runs it as one; a 3 s task is started,
 * polled until it completes and its result fetched; another is cancelled; one survives the server
 * being killed and restarted in the middle of it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { MultiServerClient } from '../../src/client/multi-server-client.js';
import type { ToolTask } from '../../src/client/tasks/task-types.js';
import { FIXTURES } from '../helpers/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-tasks-'));
let client: MultiServerClient;
beforeAll(async () => {
  client = await MultiServerClient.connect({ mcpServers: { tasks: { command: process.execPath, args: [`${FIXTURES}/task-server.mjs`, '--state', join(dir, 'tasks.json')], callTimeout: '20s' } } });
});
afterAll(async () => {
  await client?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the catalog shows which tools take tasks', () => {
  expect(client.getTool('report')?.execution).toEqual({ taskSupport: 'required' });
  expect(client.getTool('quick')?.execution).toEqual({ taskSupport: 'optional' });
});

test('callTool on a tool that requires a task runs it as one and returns its result', async () => {
  const result = await client.callTool('report', { ms: 300 });
  expect(result).toMatchObject({ isError: false, content: [{ type: 'text', text: 'report: finished after 300 ms' }] });
});

test('a 3 s task: started, polled until it completes, its result fetched', async () => {
  const started = performance.now();
  const task = await client.tasks.start('report', { ms: 3_000 });
  expect(task).toMatchObject({ server: 'tasks', status: 'working' });
  expect(task.taskId).toMatch(/^[0-9a-f]{32}$/);
  expect((await client.tasks.get(task)).status).toBe('working');
  const seen: ToolTask['status'][] = [];
  const final = await client.tasks.wait(task, { timeoutMs: 15_000, onStatus: (update) => seen.push(update.status) });
  expect(final.status).toBe('completed');
  expect(seen[0]).toBe('working');
  expect(seen.at(-1)).toBe('completed');
  expect(performance.now() - started).toBeGreaterThanOrEqual(2_900);
  expect((await client.tasks.result(task)).content).toEqual([{ type: 'text', text: 'report: finished after 3000 ms' }]);
  expect((await client.tasks.list('tasks')).map((listed) => listed.taskId)).toContain(task.taskId);
});

test('a task cancelled from another run of the client ends cancelled', async () => {
  const task = await client.tasks.start('report', { ms: 3_000 });
  // Another run knows the task only by its server and id.
  const other = await MultiServerClient.connect({ mcpServers: { tasks: { command: process.execPath, args: [`${FIXTURES}/task-server.mjs`, '--state', join(dir, 'tasks.json')] } } });
  try {
    const cancelled = await other.tasks.cancel({ server: 'tasks', taskId: task.taskId });
    expect(cancelled.status).toBe('cancelled');
  } finally {
    await other.close();
  }
  expect((await client.tasks.wait(task, { timeoutMs: 5_000 })).status).toBe('cancelled');
});

test('a task survives its server being killed and restarted while it runs', async () => {
  const task = await client.tasks.start('report', { ms: 3_000 });
  const pid = client.status().find((status) => status.name === 'tasks')?.pid;
  expect(pid).toBeGreaterThan(0);
  process.kill(pid ?? 0, 'SIGKILL');
  const final = await client.tasks.wait(task, { timeoutMs: 20_000 });
  expect(final.status).toBe('completed');
  expect(client.status().find((status) => status.name === 'tasks')?.pid).not.toBe(pid);
  expect((await client.tasks.result(task)).content).toEqual([{ type: 'text', text: 'report: finished after 3000 ms' }]);
});

test('start refuses an unknown tool with a clear error', async () => {
  await expect(client.tasks.start('nope')).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
});
