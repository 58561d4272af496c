import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { RetryPolicy } from '../../config/server-spec.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import { isSafeToRetry, retryCall, type RetryableCall } from './retry-call.js';

const ok: ToolResult = { isError: false, content: [{ type: 'text', text: 'ok' }] };
const readOnly: CatalogTool = { name: 'read', server: 's', originalName: 'read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
const writes: CatalogTool = { name: 'write', server: 's', originalName: 'write', inputSchema: { type: 'object' } };
const policy: RetryPolicy = { attempts: 3, backoffMs: 100, maxBackoffMs: 1_000, onTimeout: false };
const disconnected = (): SwitchboardError => new SwitchboardError(ErrorCode.ServerDisconnected, 'server "s": the connection was closed', { server: 's' });
const notSent = (): SwitchboardError => new SwitchboardError(ErrorCode.ServerDisconnected, 'server "s" is not running', { server: 's', details: { notSent: true } });

describe('retryCall', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** A call whose sends answer from `answers` in turn; records each send's time budget. */
  function call(tool: CatalogTool, answers: Array<ToolResult | Error>, extra: Partial<RetryableCall> = {}): RetryableCall & { sends: number[]; retries: number[] } {
    const sends: number[] = [];
    const retries: number[] = [];
    return {
      tool, policy, deadline: performance.now() + 10_000, sends, retries,
      send: (timeoutMs) => {
        sends.push(timeoutMs);
        const answer = answers.shift();
        return answer instanceof Error || answer === undefined ? Promise.reject(answer ?? new Error('no more answers')) : Promise.resolve(answer);
      },
      onRetry: (attempt) => void retries.push(attempt),
      ...extra,
    };
  }

  test('a read-only tool whose server went away is retried after the backoff, and its result returned', async () => {
    const attempt = call(readOnly, [disconnected(), ok]);
    const settled = retryCall(disconnected(), attempt);
    await vi.advanceTimersByTimeAsync(79);
    expect(attempt.sends).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    await expect(settled).resolves.toBe(ok);
    expect(attempt.retries).toEqual([2, 3]);
    expect(attempt.sends).toHaveLength(2);
  });

  test('a tool that may write is never sent twice, unless the request provably never left', async () => {
    const first = disconnected();
    await expect(retryCall(first, call(writes, [ok]))).rejects.toBe(first);
    const never = call(writes, [ok]);
    const settled = retryCall(notSent(), never);
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(settled).resolves.toBe(ok);
  });

  test('no policy, or a single attempt, retries nothing', async () => {
    const first = disconnected();
    await expect(retryCall(first, call(readOnly, [ok], { policy: undefined }))).rejects.toBe(first);
    await expect(retryCall(first, call(readOnly, [ok], { policy: { ...policy, attempts: 1 } }))).rejects.toBe(first);
  });

  test('retries share the call’s deadline: none once it has passed, and each is sent with what is left', async () => {
    const late = call(readOnly, [ok], { deadline: performance.now() - 1 });
    const first = disconnected();
    await expect(retryCall(first, late)).rejects.toBe(first);
    const tight = call(readOnly, [ok], { deadline: performance.now() + 500 });
    const settled = retryCall(disconnected(), tight);
    await vi.advanceTimersByTimeAsync(500);
    await settled;
    expect(tight.sends[0]).toBeLessThanOrEqual(500 - 80);
  });

  test('an abort while waiting to retry cancels the call', async () => {
    const abort = new AbortController();
    const settled = retryCall(disconnected(), call(readOnly, [ok], { signal: abort.signal }));
    const failure = settled.catch((error: unknown) => error);
    abort.abort();
    expect(await failure).toMatchObject({ code: ErrorCode.RequestCancelled });
  });
});

describe('isSafeToRetry', () => {
  const timeout = new SwitchboardError(ErrorCode.RequestTimeout, 'no answer');
  const http = (status: number): SwitchboardError => new SwitchboardError(ErrorCode.ServerHttpError, 'http', { details: { status } });
  test('by code and annotation', () => {
    expect(isSafeToRetry(timeout, readOnly, policy)).toBe(false);
    expect(isSafeToRetry(timeout, readOnly, { ...policy, onTimeout: true })).toBe(true);
    expect([500, 503, 429, 408, 404, 400].map((status) => isSafeToRetry(http(status), readOnly, policy))).toEqual([true, true, true, true, false, false]);
    expect(isSafeToRetry(http(500), { annotations: { idempotentHint: true } }, policy)).toBe(true);
    expect(isSafeToRetry(http(500), writes, policy)).toBe(false);
    expect(isSafeToRetry(new Error('plain'), readOnly, policy)).toBe(false);
  });
});
