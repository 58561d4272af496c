/**
 * @module gateway/task-handlers
 * Tasks through the gateway (MCP 2025-11-25, on 2025-era sessions): a task-augmented `tools/call`
 * starts the task at the owning server (within the user's call limit, audited like a call) and answers with a task under a gateway id bound to the user
 * ({@link GatewayTasks}); `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` go to the
 * server that runs it. (A 2026-07-28 client calls plainly: a tool that requires a task is run as one
 * by the library and the client sees an ordinary call.)
 */

import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CatalogTool } from '../client/multi-server-client.js';
import type { ToolTask } from '../client/tasks/task-types.js';
import type { RegistryUser } from '../registry/index.js';
import type { UserClient } from '../pool/index.js';
import type { GatewayTasks, TaskBinding } from './gateway-tasks.js';
import { toProtocolError, toWireResult } from './wire-format.js';

/** What the handlers need of the user's endpoint. */
export interface TaskHost {
  readonly user: RegistryUser;
  readonly tasks: GatewayTasks;
  client(): UserClient;
}

/** The capability the gateway declares on 2025-era sessions. */
export const GATEWAY_TASKS_CAPABILITY = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

const RELATED_TASK = 'io.modelcontextprotocol/related-task';
/** Most tasks `tasks/list` looks up at their servers. */
const MAX_LISTED = 100;

/** A task as the downstream client sees it: the gateway's id, the server's state. */
function wireTask(binding: TaskBinding, task: ToolTask): Record<string, unknown> {
  return {
    taskId: binding.id,
    status: task.status,
    ttl: task.ttl,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ...(task.pollInterval === undefined ? {} : { pollInterval: task.pollInterval }),
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
  };
}

/**
 * Starts `tool` as a task for a task-augmented `tools/call`. The result carries an empty `content`
 * beside `task`: the SDK's server refuses a `tools/call` answer without one.
 */
export async function startTaskCall(host: TaskHost, tool: CatalogTool, args: Record<string, unknown>, ttl: unknown, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const task = await host.client().startTask(tool.name, args, { signal, ...(typeof ttl === 'number' && ttl > 0 ? { ttlMs: ttl } : {}) });
    const binding = host.tasks.bind(tool.server, task.taskId, task.ttl);
    return { content: [], task: wireTask(binding, task) } as CallToolResult;
  } catch (error) {
    throw toProtocolError(error);
  }
}

/** Registers `tasks/get`, `tasks/result`, `tasks/cancel` and `tasks/list` on a 2025-era server. */
export function registerTaskHandlers(server: Server, host: TaskHost): void {
  const byId = { params: z.object({ taskId: z.string() }).passthrough() };
  const bound = (taskId: string): TaskBinding => {
    const binding = host.tasks.lookup(taskId, host.user.id);
    // Another user's task, an expired one and a made-up id read the same: nothing to learn from the answer.
    if (binding === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no task "${taskId}": it is unknown, has expired, or is not yours`);
    return binding;
  };
  const ref = (binding: TaskBinding): { server: string; taskId: string } => ({ server: binding.server, taskId: binding.upstreamTaskId });
  const upstream = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw toProtocolError(host.client().disclose(error));
    }
  };

  server.setRequestHandler('tasks/get', byId, async (params) => {
    const binding = bound(params.taskId);
    return wireTask(binding, await upstream(() => host.client().tasks.get(ref(binding))));
  });

  server.setRequestHandler('tasks/cancel', byId, async (params) => {
    const binding = bound(params.taskId);
    return wireTask(binding, await upstream(() => host.client().tasks.cancel(ref(binding))));
  });

  server.setRequestHandler('tasks/result', byId, async (params, ctx) => {
    const binding = bound(params.taskId);
    const result = await upstream(() => host.client().tasks.result(ref(binding), { signal: ctx.mcpReq.signal }));
    const wire = toWireResult(result);
    // The related task is named by the id the client knows.
    return { ...wire, _meta: { ...wire._meta, [RELATED_TASK]: { taskId: binding.id } } };
  });

  server.setRequestHandler('tasks/list', { params: z.object({ cursor: z.string().optional() }).passthrough().optional() }, async () => {
    const bindings = host.tasks.list().slice(0, MAX_LISTED);
    const tasks = await Promise.all(bindings.map((binding) => host.client().tasks.get(ref(binding)).then((task) => wireTask(binding, task), () => undefined)));
    return { tasks: tasks.filter((task) => task !== undefined) };
  });
}
