import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { StartLimiter } from './start-limiter.js';
import { startWithinDeadline, type StartTiming } from './start-within-deadline.js';

describe('StartLimiter', () => {
  test('at most `max` run at once; the others wait in order and start as slots free up', async () => {
    const limiter = new StartLimiter(2);
    const order: string[] = [];
    const releases = new Map<string, () => void>();
    const start = (name: string) => limiter.acquire().then((release) => {
      order.push(name);
      releases.set(name, release);
    });
    const all = ['a', 'b', 'c', 'd'].map(start);
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['a', 'b']);
    expect([limiter.running, limiter.waiting]).toEqual([2, 2]);
    releases.get('b')?.();
    releases.get('b')?.(); // twice is harmless
    await vi.waitFor(() => expect(order).toEqual(['a', 'b', 'c']));
    expect([limiter.running, limiter.waiting]).toEqual([2, 1]);
    releases.get('a')?.();
    await Promise.all(all);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    releases.get('c')?.();
    releases.get('d')?.();
    expect([limiter.running, limiter.waiting]).toEqual([0, 0]);
  });

  test('a wait given up by its signal leaves the queue and rejects with the reason', async () => {
    const limiter = new StartLimiter(1);
    const release = await limiter.acquire();
    const abort = new AbortController();
    const waiting = limiter.acquire(abort.signal);
    abort.abort(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    expect(limiter.waiting).toBe(0);
    release();
    expect(limiter.running).toBe(0);
  });

  test('refuses a max below 1', () => {
    expect(() => new StartLimiter(0)).toThrow(RangeError);
  });
});

describe('startWithinDeadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** An attempt that finishes after `ms` unless its signal aborts first. */
  const handshake = (abort: AbortController, ms: number) => () =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => resolve('ready'), ms);
      abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(abort.signal.reason);
      });
    });

  test('time waiting for a slot does not count: queued 8 s behind another start, a 5 s handshake meets a 10 s deadline', async () => {
    const limiter = new StartLimiter(1);
    const timings: StartTiming[] = [];
    const run = (ms: number) => {
      const abort = new AbortController();
      return startWithinDeadline({ limiter, deadlineMs: 10_000, abort, deadlineError: () => new Error('deadline'), onTiming: (timing) => timings.push(timing), now: Date.now }, handshake(abort, ms));
    };
    const first = run(8_000);
    const second = run(5_000);
    await vi.advanceTimersByTimeAsync(13_000);
    await expect(first).resolves.toBe('ready');
    await expect(second).resolves.toBe('ready');
    expect(timings).toEqual([
      { queuedMs: 0, handshakeMs: 8_000, deadlineMs: 10_000 },
      { queuedMs: 8_000, handshakeMs: 5_000, deadlineMs: 10_000 },
    ]);
  });

  test('a handshake longer than the deadline from its own spawn is aborted, and frees its slot', async () => {
    const limiter = new StartLimiter(1);
    const abort = new AbortController();
    const attempt = startWithinDeadline({ limiter, deadlineMs: 10_000, abort, deadlineError: () => new Error('deadline') }, handshake(abort, 60_000));
    const settled = expect(attempt).rejects.toThrow('deadline');
    await vi.advanceTimersByTimeAsync(10_000);
    await settled;
    expect(limiter.running).toBe(0);
  });
});
