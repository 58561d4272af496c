import { afterEach, expect, test, vi } from 'vitest';
import { ErrorCode } from '../errors.js';
import { CallLimiter } from './call-limiter.js';

afterEach(() => {
  vi.useRealTimers();
});

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

test('runs at most `limit` tasks at once, the rest in order', async () => {
  const limiter = new CallLimiter(2);
  const gates = [deferred(), deferred(), deferred(), deferred()];
  const started: number[] = [];
  const runs = gates.map((gate, index) =>
    limiter.run(async () => {
      started.push(index);
      await gate.promise;
    }),
  );
  await Promise.resolve();
  expect(started).toEqual([0, 1]);
  expect([limiter.active, limiter.waiting]).toEqual([2, 2]);
  gates[1]?.resolve();
  await runs[1];
  await Promise.resolve();
  expect(started).toEqual([0, 1, 2]);
  for (const gate of gates) gate.resolve();
  await Promise.all(runs);
  expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
});

test('a waiting task fails with LIMIT_EXCEEDED after the queue timeout', async () => {
  vi.useFakeTimers();
  const limiter = new CallLimiter(1);
  const gate = deferred();
  const running = limiter.run(() => gate.promise);
  const waiting = limiter.run(async () => 'never', { queueTimeoutMs: 1_000, subject: 'user "alice"' });
  const outcome = waiting.catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(1_000);
  expect(await outcome).toMatchObject({ code: ErrorCode.LimitExceeded, message: 'user "alice" has 1 calls running, the limit; waited 1000 ms for one to end' });
  expect(limiter.waiting).toBe(0);
  gate.resolve();
  await running;
});

test('a waiting task ends when its signal aborts; a failing task frees its slot', async () => {
  const limiter = new CallLimiter(1);
  const gate = deferred();
  const running = limiter.run(() => gate.promise);
  const abort = new AbortController();
  const waiting = limiter.run(async () => 'never', { signal: abort.signal }).catch((error: unknown) => error);
  abort.abort();
  expect(await waiting).toMatchObject({ code: ErrorCode.RequestCancelled });
  gate.resolve();
  await running;
  await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  expect(limiter.active).toBe(0);
  expect(await limiter.run(async () => 'free again')).toBe('free again');
});

test('raising the limit starts waiting tasks', async () => {
  const limiter = new CallLimiter(1);
  const gate = deferred();
  const first = limiter.run(() => gate.promise);
  let secondStarted = false;
  const second = limiter.run(async () => {
    secondStarted = true;
  });
  expect(secondStarted).toBe(false);
  limiter.setLimit(2);
  await second;
  expect(secondStarted).toBe(true);
  gate.resolve();
  await first;
});

test('tryStart takes a free slot and refuses when all are taken; finish gives it back and starts a waiting task', async () => {
  const limiter = new CallLimiter(1);
  expect(limiter.tryStart()).toBe(true);
  expect(limiter.tryStart()).toBe(false);
  let started = false;
  const waiting = limiter.run(async () => {
    started = true;
  });
  expect(limiter.waiting).toBe(1);
  limiter.finish();
  await waiting;
  expect(started).toBe(true);
  expect(limiter.active).toBe(0);
  expect(limiter.tryStart()).toBe(true);
});
