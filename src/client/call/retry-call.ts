/**
 * @module client/call/retry-call
 * The retry layer of a tool call, entered only after a failed first attempt: it retries when that is
 * safe — the request provably never reached the server, or the tool says it is read-only or
 * idempotent. A tool that may write is never sent twice. Retries share the call's deadline and wait
 * the policy's backoff between attempts.
 */

import type { RetryPolicy } from '../../config/server-spec.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../../errors.js';
import type { ToolResult } from '../../result/tool-result.js';
import { backoffDelay } from '../../util/backoff.js';
import type { CatalogTool } from '../catalog/catalog-items.js';

/** What a retry needs of the call. */
export interface RetryableCall {
  tool: CatalogTool;
  /** The server's policy; `undefined` retries nothing. */
  policy: RetryPolicy | undefined;
  /** `performance.now()` by which the whole call must be done. */
  deadline: number;
  signal?: AbortSignal | undefined;
  /** Sends the call again with this much time left. */
  send(timeoutMs: number): Promise<ToolResult>;
  /** Told before each retry (for stats and the log). */
  onRetry(attempt: number, error: unknown): void;
}

/** Resolves with a retry's result, or rejects with the last error when retrying is not safe or not left. */
export async function retryCall(firstError: unknown, call: RetryableCall): Promise<ToolResult> {
  const { policy, tool, deadline, signal } = call;
  if (policy === undefined || policy.attempts < 2 || !isSafeToRetry(firstError, tool, policy)) throw firstError;
  let error: unknown = firstError;
  for (let attempt = 2; attempt <= policy.attempts; attempt++) {
    const remaining = deadline - performance.now();
    if (remaining <= 0 || signal?.aborted === true || !isSafeToRetry(error, tool, policy)) break;
    call.onRetry(attempt, error);
    await abortableDelay(Math.min(remaining, backoffDelay(attempt - 2, { initialMs: policy.backoffMs, maxMs: policy.maxBackoffMs })), signal);
    try {
      return await call.send(Math.max(1, deadline - performance.now()));
    } catch (retryError) {
      error = retryError;
    }
  }
  throw error;
}

/** A retry is safe when the request never reached the server, or the tool does not write (or is idempotent). */
export function isSafeToRetry(error: unknown, tool: Pick<CatalogTool, 'annotations'>, policy: RetryPolicy): boolean {
  if (!isSwitchboardError(error)) return false;
  if (error.details.notSent === true) return true;
  const repeatable = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
  if (!repeatable) return false;
  switch (error.code) {
    case ErrorCode.ServerDisconnected:
      return true;
    case ErrorCode.RequestTimeout:
      return policy.onTimeout;
    case ErrorCode.ServerHttpError: {
      const status = error.details.status;
      return typeof status === 'number' && (status >= 500 || status === 429 || status === 408);
    }
    default:
      return false;
  }
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new SwitchboardError(ErrorCode.RequestCancelled, 'cancelled while waiting to retry', { operation: 'tools/call' }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
