/**
 * @module dashboard/components/running-tasks
 * The tasks the user started through the gateway that are still running (long tool calls started as
 * tasks): server, the gateway's task id, status and since when; refreshed while the page is open.
 */

import { useSession } from '../state/session.js';
import { useLoader } from '../state/use-loader.js';

/** Reload the list while the page is open. @default 2000 */
export const TASKS_REFRESH_MS = 2_000;

export function RunningTasks() {
  const { api } = useSession();
  const tasks = useLoader(() => api.tasks(), ['tools-changed', 'server-state-change'], TASKS_REFRESH_MS);
  const list = tasks.data?.tasks ?? [];
  return (
    <section class="card running-tasks" aria-labelledby="tasks-title">
      <h2 id="tasks-title">Running tasks</h2>
      {list.length === 0 ? (
        <p class="muted">{tasks.data === undefined ? 'Loading tasks…' : 'No task is running.'}</p>
      ) : (
        <table>
          <caption class="visually-hidden">Tasks running on your servers</caption>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">Task</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
            </tr>
          </thead>
          <tbody>
            {list.map((task) => (
              <tr key={`${task.server}/${task.taskId}`} data-task={task.taskId}>
                <td>{task.server}</td>
                <td>
                  <code title={task.taskId}>{task.taskId.slice(0, 12)}</code>
                </td>
                <td>
                  {task.status}
                  {task.statusMessage === undefined ? null : <span class="muted small"> {task.statusMessage}</span>}
                </td>
                <td>{task.createdAt === '' ? '' : new Date(task.createdAt).toLocaleTimeString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
