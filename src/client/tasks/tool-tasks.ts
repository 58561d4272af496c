/**
 * @module client/tasks/tool-tasks
 * Tasks of a client's tools, by exposed name (`client.tasks`): start a call as a task, look at it,
 * wait for it, fetch its result, cancel it, list a server's tasks. A task is named by its server and
 * id (a {@link TaskRef}), which stay valid across the server's restarts and reconnects for as long as
 * the server keeps the task.
 */

import type { CallOptions, ServerConnection } from '../../connection/server-connection.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ToolResult } from '../../result/tool-result.js';
import { cancelTask, getTask, listTasks, startTask, taskResult, waitForTask, type WaitOptions } from './task-requests.js';
import { taskSupportOf, type ToolTask } from './task-types.js';

/** A task by its server and id. */
export interface TaskRef {
  server: string;
  taskId: string;
}

/** What the tasks need of the client. */
export interface TaskHost {
  getTool(name: string): { name: string; server: string; originalName: string; execution?: unknown } | undefined;
  connection(server: string): ServerConnection | undefined;
}

/** The tasks of one client. */
export class ToolTasks {
  readonly #host: TaskHost;

  constructor(host: TaskHost) {
    this.#host = host;
  }

  /** Starts a tool (by exposed name) as a task; its server must offer tasks for it. */
  async start(name: string, args: Record<string, unknown> = {}, options: CallOptions & { ttlMs?: number } = {}): Promise<ToolTask> {
    const tool = this.#host.getTool(name);
    if (tool === undefined) throw new SwitchboardError(ErrorCode.ToolNotFound, `There is no tool named "${name}".`, { tool: name });
    if (taskSupportOf(tool) === 'forbidden') {
      throw new SwitchboardError(ErrorCode.CapabilityNotSupported, `Tool "${name}" on server "${tool.server}" does not run as a task (its execution.taskSupport is not "optional" or "required"); call it with callTool.`, {
        server: tool.server,
        tool: name,
        operation: 'tools/call',
      });
    }
    return startTask(this.#connection(tool.server), tool.originalName, args, options);
  }

  /** The task's state now (`tasks/get`). */
  get(task: TaskRef, options: CallOptions = {}): Promise<ToolTask> {
    return getTask(this.#connection(task.server), task.taskId, options);
  }

  /** Polls until the task ends; resolves with its last state. */
  wait(task: TaskRef, options: WaitOptions = {}): Promise<ToolTask> {
    return waitForTask(this.#connection(task.server), { taskId: task.taskId }, options);
  }

  /** The tool's result (`tasks/result`; the server may hold it until the task ends). */
  result(task: TaskRef, options: CallOptions = {}): Promise<ToolResult> {
    return taskResult(this.#connection(task.server), task.taskId, options);
  }

  /** Cancels the task (`tasks/cancel`). */
  cancel(task: TaskRef, options: CallOptions = {}): Promise<ToolTask> {
    return cancelTask(this.#connection(task.server), task.taskId, options);
  }

  /** The server's tasks (`tasks/list`). */
  list(server: string, options: CallOptions = {}): Promise<ToolTask[]> {
    return listTasks(this.#connection(server), options);
  }

  #connection(server: string): ServerConnection {
    const connection = this.#host.connection(server);
    if (connection === undefined) throw new SwitchboardError(ErrorCode.ServerNotFound, `There is no server named "${server}".`, { server });
    return connection;
  }
}
