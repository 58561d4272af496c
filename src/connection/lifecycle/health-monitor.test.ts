import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Clock } from './clock.js';
import { HealthMonitor, type Monitored } from './health-monitor.js';

const fakeClock: Clock = { now: () => Date.now(), setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };

/** A connection stand-in whose pings are answered while `answering` is true. */
class Target implements Monitored {
  readonly server = 's';
  state: 'ready' | 'degraded' | 'reconnecting' = 'ready';
  answering = true;
  pings = 0;
  readonly events: string[] = [];
  deadError: SwitchboardError | undefined;

  serving(): boolean {
    return this.state !== 'reconnecting';
  }
  get degraded(): boolean {
    return this.state === 'degraded';
  }
  async ping(timeoutMs: number): Promise<unknown> {
    this.pings++;
    if (this.answering) return {};
    await new Promise((resolve) => setTimeout(resolve, timeoutMs));
    throw new SwitchboardError(ErrorCode.RequestTimeout, `no answer within ${timeoutMs} ms`);
  }
  markDegraded(error: SwitchboardError): void {
    this.state = 'degraded';
    this.events.push(`degraded: ${error.message}`);
  }
  markRecovered(): void {
    this.state = 'ready';
    this.events.push('ready');
  }
  dead(error: SwitchboardError): void {
    this.state = 'reconnecting';
    this.deadError = error;
    this.events.push('dead');
  }
  warn(): void {}
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('HealthMonitor', () => {
  test('missed pings mark the server degraded, an answer makes it ready again', async () => {
    const target = new Target();
    const monitor = new HealthMonitor(target, { intervalMs: 1_000, timeoutMs: 200, misses: 3 }, fakeClock);
    monitor.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(target.pings).toBe(1);
    expect(target.events).toEqual([]);
    target.answering = false;
    await vi.advanceTimersByTimeAsync(1_200);
    expect(target.events).toEqual(['degraded: no answer within 200 ms']);
    expect(monitor.missed).toBe(1);
    target.answering = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(target.events).toEqual(['degraded: no answer within 200 ms', 'ready']);
    expect(monitor.missed).toBe(0);
    monitor.stop();
    expect(vi.getTimerCount()).toBe(0);
  });

  test('`misses` in a row declare it dead (the owner restarts it), and the checks stop', async () => {
    const target = new Target();
    const monitor = new HealthMonitor(target, { intervalMs: 1_000, timeoutMs: 200, misses: 3 }, fakeClock);
    monitor.start();
    target.answering = false;
    await vi.advanceTimersByTimeAsync(3_200);
    expect(target.events).toEqual(['degraded: no answer within 200 ms', 'degraded: no answer within 200 ms', 'dead']);
    expect(target.deadError).toMatchObject({ code: ErrorCode.ServerDisconnected, server: 's', operation: 'ping', reason: 'missed 3 health checks in a row', message: 'server "s" missed 3 health checks in a row' });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(target.pings).toBe(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('one ping at a time, and none while the server is not serving', async () => {
    const target = new Target();
    const monitor = new HealthMonitor(target, { intervalMs: 100, timeoutMs: 1_000, misses: 2 }, fakeClock);
    target.answering = false;
    monitor.start();
    await vi.advanceTimersByTimeAsync(550);
    // Ticks at 100…500 ms; the first ping is still waiting for its 1 s deadline.
    expect(target.pings).toBe(1);
    target.state = 'reconnecting';
    await vi.advanceTimersByTimeAsync(2_000);
    expect(target.events).toEqual([]);
    expect(target.pings).toBe(1);
    monitor.stop();
  });
});
