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

/**
 * Whether a failed call was cancelled by the caller's own signal: then it is rethrown, not shown to
 * the model. A call cancelled by anything else (a timeout, the server) is the model's business.
 */
export function isCallerAbort(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
