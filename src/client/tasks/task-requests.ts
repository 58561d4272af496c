/**
 * @module client/tasks/task-requests
 * The task requests of one server (MCP 2025-11-25 experimental tasks): start a `tools/call` as a
 * task, `tasks/get`, `tasks/result`, `tasks/cancel`, `tasks/list`, and waiting for a task by polling
 * at the server's suggested interval. A task lives at its server, not in the connection: waiting
 * carries on across a restart or reconnect of the server (requests wait for it to be back), within
 * the caller's deadline.
 */

import type { CallOptions, ServerConnection } from '../../connection/server-connection.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../../errors.js';
import { normalizeToolResult } from '../../result/normalize-tool-result.js';
import type { ToolResult } from '../../result/tool-result.js';
import { isTerminal, toToolTask, type ToolTask } from './task-types.js';

/** Shortest and longest delay between two polls, whatever the server suggests. */
export const MIN_POLL_MS = 50;
export const MAX_POLL_MS = 5_000;
/** How long a started task is kept by its server unless the caller says otherwise. @default 10 minutes */
export const DEFAULT_TASK_TTL_MS = 600_000;

/** Options of waiting for a task. */
export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up waiting (the task keeps running) after this long. @default no limit but the signal */
  timeoutMs?: number;
  /** Each status seen while waiting. */
  onStatus?: (task: ToolTask) => void;
}

/** Starts `tool` as a task (`tools/call` with `task`); resolves with the task as created. */
export async function startTask(connection: ServerConnection, tool: string, args: Record<string, unknown>, options: CallOptions & { ttlMs?: number } = {}): Promise<ToolTask> {
  const params = { name: tool, arguments: args, task: { ttl: options.ttlMs ?? DEFAULT_TASK_TTL_MS }, ...(options.meta === undefined ? {} : { _meta: options.meta }) };
  const result = await connection.request('tools/call', params, options);
  const task = (result as { task?: unknown } | undefined)?.task;
  return checked(connection.spec.name, task, `tools/call ${tool} as a task`);
}

/** `tasks/get`. */
export async function getTask(connection: ServerConnection, taskId: string, options: CallOptions = {}): Promise<ToolTask> {
  return checked(connection.spec.name, await connection.request('tasks/get', { taskId }, options), 'tasks/get');
}

/** `tasks/result`: the tool's result once the task has ended (the server may hold the request until then). */
export async function taskResult(connection: ServerConnection, taskId: string, options: CallOptions = {}): Promise<ToolResult> {
  return normalizeToolResult(await connection.request('tasks/result', { taskId }, options), connection.spec.name);
}

/** `tasks/cancel`: resolves with the task as the server left it. */
export async function cancelTask(connection: ServerConnection, taskId: string, options: CallOptions = {}): Promise<ToolTask> {
  return checked(connection.spec.name, await connection.request('tasks/cancel', { taskId }, options), 'tasks/cancel');
}

/** `tasks/list` (every page); a server without the task list capability has none. */
export async function listTasks(connection: ServerConnection, options: CallOptions = {}): Promise<ToolTask[]> {
  const tasks = (connection.capabilities?.tasks as Record<string, unknown> | undefined)?.list;
  if (tasks === undefined) return [];
  const found: ToolTask[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 64; page++) {
    const result = (await connection.request('tasks/list', cursor === undefined ? {} : { cursor }, options)) as { tasks?: unknown; nextCursor?: unknown } | undefined;
    for (const item of Array.isArray(result?.tasks) ? result.tasks : []) {
      const task = toToolTask(connection.spec.name, item);
      if (typeof task !== 'string') found.push(task);
    }
    if (typeof result?.nextCursor !== 'string' || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return found;
}

/**
 * Polls until the task ends; resolves with its last state. A server that is restarting or
 * reconnecting is waited for (the poll is retried); the task itself is never cancelled by giving up.
 */
export async function waitForTask(connection: ServerConnection, task: ToolTask | { taskId: string }, options: WaitOptions = {}): Promise<ToolTask> {
  const deadline = options.timeoutMs === undefined ? Number.POSITIVE_INFINITY : performance.now() + options.timeoutMs;
  // A task known by its id only is looked at first, without a delay.
  let current: ToolTask | undefined = 'status' in task ? task : undefined;
  if (current !== undefined) options.onStatus?.(current);
  while (current === undefined || !isTerminal(current.status)) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) throw timedOut(connection.spec.name, task.taskId, current?.status, options.timeoutMs ?? 0);
    if (current !== undefined) await delay(Math.min(remaining, clampPoll(current.pollInterval)), options.signal);
    try {
      const next = await getTask(connection, task.taskId, { ...(options.signal === undefined ? {} : { signal: options.signal }), timeoutMs: Math.max(1, Math.min(deadline - performance.now(), connection.spec.callTimeoutMs)) });
      if (current === undefined || next.status !== current.status || next.statusMessage !== current.statusMessage) options.onStatus?.(next);
      current = next;
    } catch (error) {
      if (!isPassing(error) || options.signal?.aborted === true) throw error;
      // The server is away (restarting, reconnecting): the task is still its to finish. Wait a poll's time.
      await delay(Math.min(Math.max(1, deadline - performance.now()), clampPoll(current?.pollInterval)), options.signal);
    }
  }
  return current;
}

function clampPoll(suggested: number | undefined): number {
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested ?? 500));
}

function isPassing(error: unknown): boolean {
  return isSwitchboardError(error) && (error.code === ErrorCode.ServerDisconnected || error.code === ErrorCode.RequestTimeout || error.code === ErrorCode.ServerStartFailed);
}

function checked(server: string, value: unknown, operation: string): ToolTask {
  const task = toToolTask(server, value);
  if (typeof task === 'string') {
    throw new SwitchboardError(ErrorCode.ServerRequestFailed, `server "${server}", ${operation}: ${task}`, { server, operation, reason: task, details: { retryable: false } });
  }
  return task;
}

function timedOut(server: string, taskId: string, status: string | undefined, ms: number): SwitchboardError {
  return new SwitchboardError(ErrorCode.RequestTimeout, `task ${taskId} on server "${server}" was still ${status ?? 'not found'} after ${ms} ms; it keeps running — wait again or cancel it`, {
    server,
    operation: 'tasks/get',
    details: { taskId, ...(status === undefined ? {} : { status }) },
  });
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) {
      reject(cancelled(signal));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(cancelled(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function cancelled(signal: AbortSignal | undefined): SwitchboardError {
  return new SwitchboardError(ErrorCode.RequestCancelled, 'waiting for the task was cancelled', { cause: signal?.reason, operation: 'tasks/get' });
}
