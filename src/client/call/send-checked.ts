/**
 * @module client/call/send-checked
 * The send layer as the protocol's tool features want it: a tool whose `execution.taskSupport` is
 * `required` runs as a task (the caller sees an ordinary call, see tasks/call-as-task), and a tool
 * with an `outputSchema` has its structured result checked (see output-check). A plain tool adds
 * no promise: the hot path stays as it was.
 */

import type { OutputValidation } from '../../config/server-spec.js';
import type { CallOptions, ServerConnection } from '../../connection/server-connection.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import { callAsTask } from '../tasks/call-as-task.js';
import { taskSupportOf } from '../tasks/task-types.js';
import type { OutputCheck } from './output-check.js';
import { sendCall } from './send-call.js';

/** Sends one attempt of the call and checks its result as `mode` says. */
export function sendChecked(check: OutputCheck, connection: ServerConnection, tool: CatalogTool, args: Record<string, unknown>, options: CallOptions, mode: OutputValidation | undefined): Promise<ToolResult> {
  const sent = taskSupportOf(tool) === 'required' ? callAsTask(connection, tool.originalName, args, options) : sendCall(connection, tool, args, options);
  return check.applies(tool, mode) ? sent.then((result) => check.check(tool, result, mode)) : sent;
}
