/**
 * @module client/tasks/call-as-task
 * A plain `callTool` of a tool whose server requires tasks (`execution.taskSupport: "required"`):
 * started as a task, waited for within the call's deadline, its result fetched — the caller sees an
 * ordinary call. When the caller gives up (abort or deadline), the task is cancelled at the server:
 * nobody would ever fetch its result.
 */

import type { CallOptions, ServerConnection } from '../../connection/server-connection.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ToolResult } from '../../result/tool-result.js';
import { cancelTask, startTask, taskResult, waitForTask } from './task-requests.js';

/** How long the cancel of an abandoned task may take. */
const CANCEL_TIMEOUT_MS = 5_000;

/** Calls `tool` as a task and resolves with its result. */
export async function callAsTask(connection: ServerConnection, tool: string, args: Record<string, unknown>, options: CallOptions): Promise<ToolResult> {
  const deadline = performance.now() + (options.timeoutMs ?? connection.spec.callTimeoutMs);
  const remaining = (): number => Math.max(1, deadline - performance.now());
  const signal = options.signal === undefined ? {} : { signal: options.signal };
  const task = await startTask(connection, tool, args, { ...options, timeoutMs: remaining() });
  try {
    const final = await waitForTask(connection, task, { ...signal, timeoutMs: remaining() });
    if (final.status === 'cancelled') {
      throw new SwitchboardError(ErrorCode.RequestCancelled, `task ${final.taskId} of tool "${tool}" was cancelled by server "${connection.spec.name}"${final.statusMessage === undefined ? '' : `: ${final.statusMessage}`}`, {
        server: connection.spec.name,
        operation: 'tasks/result',
        details: { taskId: final.taskId },
      });
    }
    return await taskResult(connection, final.taskId, { ...signal, timeoutMs: remaining() });
  } catch (error) {
    if (options.signal?.aborted === true || (error instanceof SwitchboardError && error.code === ErrorCode.RequestTimeout)) {
      void cancelTask(connection, task.taskId, { timeoutMs: CANCEL_TIMEOUT_MS }).catch(() => {});
    }
    throw error;
  }
}
