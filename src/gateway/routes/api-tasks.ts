/**
 * @module gateway/routes/api-tasks
 * `GET /api/tasks`: the tasks the signed-in user's servers are running (each server that offers
 * `tasks/list`, asked now), newest first — what the dashboard shows as running tasks. A server that
 * fails to answer is left out; the others are still shown.
 */

import type { ToolTask } from '../../client/tasks/task-types.js';
import { isTerminal } from '../../client/tasks/task-types.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';

/** Most tasks answered. */
export const MAX_LISTED_TASKS = 200;

/** Adds `GET /api/tasks` (behind the auth middleware). */
export function registerTaskRoutes(app: GatewayApp, gateway: Gateway): void {
  app.get('/api/tasks', async (c) => {
    const lease = await gateway.lease(userOf(c));
    try {
      const client = lease.client;
      const servers = client.status().filter((status) => status.state === 'ready' || status.state === 'degraded');
      const lists = await Promise.all(servers.map((status) => client.tasks.list(status.name, { timeoutMs: 5_000 }).catch((): ToolTask[] => [])));
      const running = lists.flat().filter((task) => !isTerminal(task.status));
      running.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      return c.json({ tasks: running.slice(0, MAX_LISTED_TASKS) });
    } finally {
      lease.release();
    }
  });
}
