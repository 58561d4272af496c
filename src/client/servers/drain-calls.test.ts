import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { drainCalls, endCall, type Drainable } from './drain-calls.js';

describe('drainCalls', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const settled = async (promise: Promise<void>): Promise<boolean> => {
    let done = false;
    void promise.then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    return done;
  };

  test('resolves at once when nothing runs', async () => {
    expect(await settled(drainCalls({ running: 0, idle: undefined }, 1_000))).toBe(true);
  });

  test('resolves when the last running call ends, not before', async () => {
    const target: Drainable = { running: 2, idle: undefined };
    const drained = drainCalls(target, 10_000);
    endCall(target);
    expect(await settled(drained)).toBe(false);
    endCall(target);
    expect(await settled(drained)).toBe(true);
    expect(target.running).toBe(0);
  });

  test('gives up after the timeout while calls still run', async () => {
    const target: Drainable = { running: 1, idle: undefined };
    const drained = drainCalls(target, 5_000);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await settled(drained)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(drained)).toBe(true);
    expect(target.running).toBe(1);
  });

  test('idle() ends the wait at once (closing stops waiting)', async () => {
    const target: Drainable = { running: 3, idle: undefined };
    const drained = drainCalls(target, 60_000);
    target.idle?.();
    expect(await settled(drained)).toBe(true);
  });
});
