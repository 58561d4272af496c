/**
 * Tasks through the gateway (2025-era sessions), against a server on the SDK's own task runtime
 * (task-server.mjs), read by the official SDK v1 client: a task-augmented call answers with a task
 * under an id of the gateway's own (not the server's); it is polled with tasks/get until it
 * completes and its result fetched with tasks/result; it is cancelled from another session of the
 * same user; another user can neither see nor cancel it (nor find it on GET /api/tasks); a made-up id is no task; a start is in the
 * audit log like a call and waits for a slot of the user's call limit. A 2026-07-28
 * client calling the tool that requires a task plainly gets its result.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CancelTaskResultSchema, CreateTaskResultSchema, GetTaskResultSchema, ListTasksResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURES } from '../../helpers/fixtures.js';
import { connectV1, connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-gateway-tasks-'));
const STATE = join(dir, 'tasks.json');
let gateway: TestGateway;
let alice: { token: string };
let bob: { token: string };
beforeAll(async () => {
  gateway = await startTestGateway({ servers: { tasks: { command: process.execPath, args: [`${FIXTURES}/task-server.mjs`, '--state', STATE], callTimeout: '20s' } } });
  alice = await gateway.addUser('alice');
  bob = await gateway.addUser('bob');
});
afterAll(async () => {
  await gateway?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function startReport(client: V1Client, ms: number): Promise<string> {
  const created = await client.request({ method: 'tools/call', params: { name: 'report', arguments: { ms }, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
  expect(created.task.status).toBe('working');
  return created.task.taskId;
}

async function taskStatus(client: V1Client, taskId: string): Promise<string> {
  return (await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema)).status;
}

describe('one user', () => {
  let client: V1Client;
  beforeAll(async () => {
    client = await connectV1(gateway.mcpUrl, alice.token);
  });
  afterAll(async () => {
    await client?.close();
  });

  test('the gateway offers tasks and the tools say which take them', async () => {
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'report')?.execution).toEqual({ taskSupport: 'required' });
  });

  test('a 3 s task under a gateway id: polled to completion, its result fetched', async () => {
    const taskId = await startReport(client, 3_000);
    expect(taskId).not.toMatch(/^[0-9a-f]{32}$/);
    expect(readFileSync(STATE, 'utf8')).not.toContain(taskId);
    const statuses: string[] = [];
    for (let polls = 0; polls < 100; polls++) {
      const status = await taskStatus(client, taskId);
      statuses.push(status);
      if (status === 'completed') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(statuses[0]).toBe('working');
    expect(statuses.at(-1)).toBe('completed');
    const result = await client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema);
    expect(result.content).toEqual([{ type: 'text', text: 'report: finished after 3000 ms' }]);
    expect(result._meta?.['io.modelcontextprotocol/related-task']).toEqual({ taskId });
    const listed = await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    expect(listed.tasks.map((task) => task.taskId)).toContain(taskId);
  });

  test('cancelled from another session of the same user', async () => {
    const taskId = await startReport(client, 3_000);
    const other = await connectV1(gateway.mcpUrl, alice.token);
    try {
      const cancelled = await other.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema);
      expect(cancelled.status).toBe('cancelled');
    } finally {
      await other.close();
    }
    expect(await taskStatus(client, taskId)).toBe('cancelled');
  });
});

test("another user can neither see nor cancel a user's task; a made-up id is no task", async () => {
  const mine = await connectV1(gateway.mcpUrl, alice.token);
  const theirs = await connectV1(gateway.mcpUrl, bob.token);
  try {
    const taskId = await startReport(mine, 3_000);
    await expect(theirs.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema)).rejects.toThrow(/is unknown, has expired, or is not yours/);
    await expect(theirs.request({ method: 'tasks/cancel', params: { taskId } }, CancelTaskResultSchema)).rejects.toThrow(/is unknown, has expired, or is not yours/);
    expect((await theirs.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema)).tasks).toEqual([]);
    // Nor on the dashboard's list (the server's own tasks/list holds everyone's): each user sees their own, by the gateway's id.
    const listed = async (token: string): Promise<string[]> => ((await (await gateway.api('/api/tasks', { token })).json()) as { tasks: Array<{ taskId: string }> }).tasks.map((task) => task.taskId);
    expect(await listed(bob.token)).toEqual([]);
    expect(await listed(alice.token)).toEqual([taskId]);
    expect(await taskStatus(mine, taskId)).toBe('working');
    await expect(mine.request({ method: 'tasks/get', params: { taskId: 'AAAAAAAAAAAAAAAAAAAAAA' } }, GetTaskResultSchema)).rejects.toThrow(/no task/);
  } finally {
    await mine.close();
    await theirs.close();
  }
});

test('a started task is in the audit log like a call: its tool, its server, its outcome', async () => {
  const carol = await gateway.addUser('carol');
  const client = await connectV1(gateway.mcpUrl, carol.token);
  try {
    await startReport(client, 200);
    await waitFor(async () => (await gateway.registry.audit.list({ user: carol.user, limit: 10 })).length > 0, 10_000, 'the task start in the audit log');
    const audit = await gateway.registry.audit.list({ user: carol.user, limit: 10 });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ tool: 'report', server: 'tasks', ok: true, userName: 'carol' });
  } finally {
    await client.close();
  }
});

test("a task start waits for a slot of the user's concurrent-call limit", async () => {
  const dave = await gateway.addUser('dave');
  await gateway.registry.users.setPolicy(dave.user, { maxConcurrentCalls: 1 });
  const lease = await gateway.running.gateway.lease(dave.user);
  const modern = await connectV2(gateway.mcpUrl, dave.token, 'auto');
  const client = await connectV1(gateway.mcpUrl, dave.token);
  try {
    const order: string[] = [];
    const plain = modern.callTool({ name: 'report', arguments: { ms: 1_000 } }).then(() => order.push('call'));
    await waitFor(() => lease.client.activeCalls === 1, 10_000, 'the plain call to hold the only slot');
    const started = startReport(client, 200).then(() => order.push('start'));
    await waitFor(() => lease.client.waitingCalls === 1 || order.includes('start'), 10_000, 'the task start to queue');
    await Promise.all([plain, started]);
    expect(order).toEqual(['call', 'start']);
  } finally {
    lease.release();
    await modern.close();
    await client.close();
  }
});

test('a 2026-07-28 client calling the task-only tool plainly gets its result', async () => {
  const modern = await connectV2(gateway.mcpUrl, alice.token, 'auto');
  try {
    const result = await modern.callTool({ name: 'report', arguments: { ms: 200 } });
    expect(result.content).toEqual([{ type: 'text', text: 'report: finished after 200 ms' }]);
  } finally {
    await modern.close();
  }
});
