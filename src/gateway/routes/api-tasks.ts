/**
 * @module gateway/routes/api-tasks
 * `GET /api/tasks`: the tasks the signed-in user started through the gateway (on `/mcp` or a named
 * endpoint) that are still running, each asked of its server now, newest first, under the gateway's own
 * task id — what the dashboard shows as running tasks. A server's own `tasks/list` is not asked: on a
 * server several users share it holds everyone's tasks, and an upstream id is never shown downstream.
 * A task whose server fails to answer is left out; the others are still shown.
 */

import type { ToolTask } from '../../client/tasks/task-types.js';
import { isTerminal } from '../../client/tasks/task-types.js';
import type { TaskView } from '../../contract/api-contract.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';

/** Most tasks answered. */
export const MAX_LISTED_TASKS = 200;

/** Adds `GET /api/tasks` (behind the auth middleware). */
export function registerTaskRoutes(app: GatewayApp, gateway: Gateway): void {
  app.get('/api/tasks', async (c) => {
    const user = userOf(c);
    const bindings = [gateway.mcp, ...gateway.access.running].flatMap((endpoint) => endpoint.taskBindingsOf(user.id)).slice(-MAX_LISTED_TASKS);
    const lease = await gateway.lease(user);
    try {
      const client = lease.client;
      const asked = await Promise.all(
        bindings.map((binding) =>
          client.tasks.get({ server: binding.server, taskId: binding.upstreamTaskId }, { timeoutMs: 5_000 }).then(
            (task: ToolTask): TaskView | undefined => (isTerminal(task.status) ? undefined : { ...viewOf(task), server: binding.server, taskId: binding.id }),
            () => undefined,
          ),
        ),
      );
      const running = asked.filter((task) => task !== undefined);
      running.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return c.json({ tasks: running });
    } finally {
      lease.release();
    }
  });
}

/** The fields of a task the dashboard shows (never the server's own id). */
function viewOf(task: ToolTask): Omit<TaskView, 'server' | 'taskId'> {
  return { status: task.status, createdAt: task.createdAt, lastUpdatedAt: task.lastUpdatedAt, ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }) };
}
