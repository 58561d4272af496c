/**
 * @module client/call/call-failure
 * Errors of failed tool calls, shaped for LLMs: the message names the tool and the server, says what
 * happened in one sentence and whether retrying can help, so an agent does not loop on an opaque
 * "Internal Error". The code and cause are kept for programs.
 */

import { ErrorCode, SwitchboardError, isSwitchboardError } from '../../errors.js';

/** Whether trying the same call again can succeed, by error code. */
export function isRetryable(error: SwitchboardError): boolean {
  switch (error.code) {
    case ErrorCode.RequestTimeout:
    case ErrorCode.ServerDisconnected:
      return true;
    case ErrorCode.ServerHttpError: {
      const status = error.details.status;
      return typeof status !== 'number' || status >= 500 || status === 429 || status === 408;
    }
    default:
      return false;
  }
}

/**
 * Rewraps a call failure with an LLM-oriented message; keeps code, server, details and cause.
 * `callerTimeoutMs` is the call's own `timeoutMs`, when the caller gave one: a timeout's hint then
 * names that option rather than the config's `callTimeout`, which did not apply.
 */
export function describeCallFailure(error: unknown, tool: { name: string; server: string }, callerTimeoutMs?: number): SwitchboardError {
  const original = isSwitchboardError(error)
    ? error
    : new SwitchboardError(ErrorCode.Internal, error instanceof Error ? error.message : String(error), { cause: error, server: tool.server });
  const what = whatHappened(original);
  const retryable = isRetryable(original);
  const advice = adviceFor(original, retryable);
  const hint =
    original.code === ErrorCode.RequestTimeout && callerTimeoutMs !== undefined
      ? `the server may be busy or stuck; raise the call's \`timeoutMs\` (${callerTimeoutMs} ms now) if the work is legitimately slow`
      : original.hint;
  return new SwitchboardError(original.code, `Tool "${tool.name}" on server "${tool.server}" failed: ${what}. ${advice}`, {
    server: tool.server,
    tool: tool.name,
    operation: 'tools/call',
    reason: what,
    cause: original,
    ...(hint === undefined ? {} : { hint }),
    details: { ...original.details, tool: tool.name, retryable },
  });
}

function whatHappened(error: SwitchboardError): string {
  const reason = withoutFullStop(error.reason);
  switch (error.code) {
    case ErrorCode.RequestTimeout:
      return 'the server did not answer within the time limit';
    case ErrorCode.RequestCancelled:
      return 'the call was cancelled';
    case ErrorCode.ServerDisconnected:
      return `the server is not connected (${reason})`;
    case ErrorCode.ServerUnauthorized:
      return `the server refused the credentials (${reason})`;
    default:
      return reason;
  }
}

function adviceFor(error: SwitchboardError, retryable: boolean): string {
  if (error.code === ErrorCode.RequestCancelled) return 'Call it again only if the result is still needed.';
  if (error.code === ErrorCode.InvalidArgument) return 'Fix the arguments and call again; retrying unchanged will fail the same way.';
  if (error.code === ErrorCode.ServerRequestFailed) return 'Retrying the same call will not help; check the arguments or use another tool.';
  if (retryable) return error.code === ErrorCode.ServerDisconnected ? 'Retrying may help once the server has restarted.' : 'Retrying may help.';
  return 'Retrying will not help until the problem is fixed.';
}

function withoutFullStop(text: string): string {
  return text.endsWith('.') ? text.slice(0, -1) : text;
}
