/**
 * @module pool/run-call
 * How a user client's metered call runs on its current client, and how its audit code is read from
 * the result: module-level functions, so a call allocates no closure for them (issue 17).
 */

import type { MultiServerClient } from '../client/multi-server-client.js';
import type { CallOptions } from '../connection/server-connection.js';
import type { ToolResult } from '../result/tool-result.js';

/** The audit code of a call whose result has `isError: true`. */
export const TOOL_ERROR_CODE = 'TOOL_ERROR';

/** Runs one call of `name` on `client`. */
export type RunCall<T> = (client: MultiServerClient, name: string, args: Record<string, unknown>, options: CallOptions) => Promise<T>;

/** A `tools/call`. */
export const CALL_TOOL: RunCall<ToolResult> = (client, name, args, options) => client.callTool(name, args, options);

/** The audit code of a tool's result: {@link TOOL_ERROR_CODE} for `isError: true`, else none. */
export function toolErrorCodeOf(result: ToolResult): string | undefined {
  return result.isError ? TOOL_ERROR_CODE : undefined;
}
