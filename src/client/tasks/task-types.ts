/**
 * @module client/tasks/task-types
 * Tasks as the library hands them out (MCP 2025-11-25 experimental tasks: a task-augmented
 * `tools/call` answers at once with a task the caller polls, then fetches the result of), and the
 * check of a server's task object.
 */

/** The states of a task; the last three are terminal. */
export const TASK_STATUSES = ['working', 'input_required', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task, with the server that runs it. */
export interface ToolTask {
  server: string;
  taskId: string;
  status: TaskStatus;
  /** How long the server keeps it after creation (ms); null: unlimited. */
  ttl: number | null;
  createdAt: string;
  lastUpdatedAt: string;
  /** The server's suggested delay between polls (ms). */
  pollInterval?: number;
  statusMessage?: string;
}

/** True once the task can no longer change. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A server's task object as a {@link ToolTask}, or a description of what is wrong with it. */
export function toToolTask(server: string, value: unknown): ToolTask | string {
  if (typeof value !== 'object' || value === null) return 'the task is not an object';
  const task = value as Record<string, unknown>;
  if (typeof task.taskId !== 'string' || task.taskId === '') return 'the task has no taskId';
  if (typeof task.status !== 'string' || !(TASK_STATUSES as readonly string[]).includes(task.status)) return `the task's status ${JSON.stringify(task.status)} is not one of ${TASK_STATUSES.join(', ')}`;
  return {
    server,
    taskId: task.taskId,
    status: task.status as TaskStatus,
    ttl: typeof task.ttl === 'number' ? task.ttl : null,
    createdAt: typeof task.createdAt === 'string' ? task.createdAt : '',
    lastUpdatedAt: typeof task.lastUpdatedAt === 'string' ? task.lastUpdatedAt : '',
    ...(typeof task.pollInterval === 'number' && task.pollInterval > 0 ? { pollInterval: task.pollInterval } : {}),
    ...(typeof task.statusMessage === 'string' ? { statusMessage: task.statusMessage } : {}),
  };
}

/** How a tool takes tasks (`execution.taskSupport`); absent means `forbidden`. */
export function taskSupportOf(tool: { execution?: unknown }): 'required' | 'optional' | 'forbidden' {
  const execution = tool.execution;
  const support = typeof execution === 'object' && execution !== null ? (execution as Record<string, unknown>).taskSupport : undefined;
  return support === 'required' || support === 'optional' ? support : 'forbidden';
}
