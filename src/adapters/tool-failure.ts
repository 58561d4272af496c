/**
 * @module adapters/tool-failure
 * What a model is told when a tool call could not run (server down, unknown tool, invalid arguments,
 * timeout). `MultiServerClient.callTool` already words its errors for LLMs (which tool, which server,
 * what happened, whether retrying helps); the adapters hand that text to the model as a tool error
 * instead of failing the agent run. Only a cancellation by the caller propagates.
 */

import { isSwitchboardError } from '../errors.js';

/** The text a model sees for a failed call. */
export function toolFailureText(error: unknown): string {
  if (isSwitchboardError(error)) return error.message;
  return `The tool call failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** Whether the failure is the caller's own cancellation (then it is rethrown, not shown to the model). */
export function isCallerAbort(_error: unknown, signal: AbortSignal | undefined): boolean {
  // A call cancelled by anything else (a server-side cancel, a timeout) is the model's business.
  return signal?.aborted === true;
}
