import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { RestartPolicy } from '../../config/server-spec.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ServerState } from '../server-state.js';
import type { Clock } from './clock.js';
import { Supervisor, type AttemptTrigger, type StartRetryPolicy, type Supervised } from './supervisor.js';

/** The faked global timers, as a Clock. */
const fakeClock: Clock = { now: () => Date.now(), setTimeout: (callback, ms) => setTimeout(callback, ms), clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout) };
const fail = (message: string): SwitchboardError => new SwitchboardError(ErrorCode.ServerStartFailed, message, { server: 's', reason: message });

/** A connection stand-in: each attempt or connect succeeds or fails as the next outcome says. */
class Target implements Supervised {
  closing = false;
  state: ServerState = 'connecting';
  lastError: SwitchboardError | undefined;
  readonly states: ServerState[] = [];
  readonly attempts: number[] = [];
  readonly connects: Array<{ at: number; trigger: AttemptTrigger }> = [];
  readonly readies: Array<{ reason: string; attempt: number }> = [];
  outcomes: boolean[] = [];
  supervisor!: Supervisor;

  setState(to: ServerState): void {
    if (to === this.state) return;
    this.state = to;
    this.states.push(to);
  }
  closedError(): SwitchboardError {
    return new SwitchboardError(ErrorCode.ServerDisconnected, 'closed');
  }
  async attempt(): Promise<void> {
    this.attempts.push(Date.now());
    if (this.outcomes.shift() !== true) throw fail(`attempt ${this.attempts.length} failed`);
  }
  ready(reason: string, attempt: number): void {
    this.readies.push({ reason, attempt });
    this.setState('ready');
  }
  async connect(trigger: AttemptTrigger): Promise<void> {
    this.connects.push({ at: Date.now(), trigger });
    this.supervisor.connecting(trigger);
    this.setState('connecting');
    if (this.outcomes.shift() === true) {
      this.supervisor.succeeded();
      this.setState('ready');
      return;
    }
    this.lastError = fail('connect failed');
    this.setState('failed');
    if (trigger !== 'probe') this.supervisor.startFailed();
    throw this.lastError;
  }
  warn(): void {}
}

const policy: RestartPolicy = { attempts: 3, delayMs: 100, maxDelayMs: 1_000, probeIntervalMs: 5_000 };
function supervise(options: { restart?: RestartPolicy | false; startRetry?: StartRetryPolicy }): Target {
  const target = new Target();
  // random 0.5: no jitter, so the delays are exact.
  target.supervisor = new Supervisor(target, { restart: options.restart ?? policy, startRetry: options.startRetry, clock: fakeClock, random: () => 0.5 });
  return target;
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Supervisor', () => {
  test('a failed start is retried in the background with exponential backoff, capped, until it succeeds', async () => {
    const target = supervise({ startRetry: { delayMs: 1_000, maxDelayMs: 3_000 } });
    target.outcomes = [false, false, false, false, true];
    await expect(target.connect('start-retry')).rejects.toThrow('connect failed');
    expect(target.supervisor.retryScheduled).toBe(true);
    await vi.advanceTimersByTimeAsync(20_000);
    // 1 s, 2 s, 3 s (capped), 3 s after each failure.
    expect(target.connects.map((connect) => connect.at)).toEqual([0, 1_000, 3_000, 6_000, 9_000]);
    expect(target.connects.slice(1).every((connect) => connect.trigger === 'start-retry')).toBe(true);
    expect(target.state).toBe('ready');
    expect(target.supervisor.retryScheduled).toBe(false);
  });

  test('without a start-retry policy a failed start stays failed', async () => {
    const target = supervise({});
    target.outcomes = [false, true];
    await expect(target.connect('start-retry')).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(target.connects).toHaveLength(1);
    expect(target.state).toBe('failed');
  });

  test('a crash is restarted after the first backoff delay; the reason and attempt are reported', async () => {
    const target = supervise({});
    target.state = 'ready';
    target.outcomes = [false, true];
    const settled: number[] = [];
    target.supervisor.crashed(async () => {
      settled.push(Date.now());
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(settled).toEqual([0]);
    // The first restart waits 100 ms; the second 200 ms after the first failed.
    expect(target.attempts).toEqual([100, 300]);
    expect(target.readies).toEqual([{ reason: 'disconnected', attempt: 2 }]);
    expect(target.states).toEqual(['reconnecting', 'ready']);
  });

  test('restarts that keep failing open the circuit after N attempts; a probe every probeInterval brings it back', async () => {
    const target = supervise({});
    target.state = 'ready';
    target.outcomes = [false, false, false, false, true];
    const run = target.supervisor.reconnect('requested');
    run.catch(() => {});
    await vi.advanceTimersByTimeAsync(1_000);
    await expect(run).rejects.toThrow('attempt 3 failed');
    // Immediate, then the second and third backoff delays (200 ms, 400 ms).
    expect(target.attempts).toEqual([0, 200, 600]);
    expect(target.state).toBe('failed');
    expect(target.supervisor.probing).toBe(true);
    // The first probe fails (it is no start failure: no start retry), the next one succeeds.
    await vi.advanceTimersByTimeAsync(10_000);
    expect(target.connects.map((connect) => [connect.at, connect.trigger])).toEqual([
      [5_600, 'probe'],
      [10_600, 'probe'],
    ]);
    expect(target.state).toBe('ready');
    expect(target.supervisor.probing).toBe(false);
  });

  test('restart: false — a crash is not restarted; with a start-retry policy it is retried as a failed start', async () => {
    const plain = supervise({ restart: false });
    plain.state = 'failed';
    plain.supervisor.crashed(async () => {});
    await vi.advanceTimersByTimeAsync(60_000);
    expect(plain.attempts).toEqual([]);
    expect(plain.connects).toEqual([]);

    const crashedAt = Date.now();
    const retried = supervise({ restart: false, startRetry: { delayMs: 500, maxDelayMs: 500 } });
    retried.state = 'failed';
    retried.outcomes = [true];
    retried.supervisor.crashed(async () => {});
    await vi.advanceTimersByTimeAsync(60_000);
    expect(retried.attempts).toEqual([]);
    expect(retried.connects).toEqual([{ at: crashedAt + 500, trigger: 'start-retry' }]);
    expect(retried.state).toBe('ready');
  });

  test('close() ends a restart waiting out its backoff, and no timer fires after it', async () => {
    const target = supervise({ startRetry: { delayMs: 1_000, maxDelayMs: 1_000 } });
    target.state = 'ready';
    const run = target.supervisor.reconnect('requested', false);
    run.catch(() => {});
    target.closing = true;
    target.supervisor.close();
    await expect(run).rejects.toThrow('closed');
    expect(vi.getTimerCount()).toBe(0);
    expect(target.attempts).toEqual([]);
  });
});

describe('Supervisor start retries held until armed', () => {
  test('a start that failed before arming is retried from the moment it is armed', async () => {
    const target = supervise({ startRetry: { delayMs: 1_000, maxDelayMs: 1_000, armed: false } });
    target.outcomes = [false, true];
    await expect(target.connect('start-retry')).rejects.toThrow();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(target.connects).toHaveLength(1);
    target.supervisor.armStartRetry();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(target.connects.map((connect) => connect.at)).toEqual([0, 6_000]);
    expect(target.state).toBe('ready');
  });
});

describe('Supervisor: a start the owner rejects', () => {
  test('is retried like a failed one, the backoff going on from where it was (not from the first delay)', async () => {
    const target = supervise({ startRetry: { delayMs: 1_000, maxDelayMs: 8_000 } });
    target.outcomes = [false, true, true, true];
    await expect(target.connect('start-retry')).rejects.toThrow('connect failed');
    // Up at 1 s, but the owner could not list it: rejected.
    const reject = (): void => {
      target.setState('failed');
      target.supervisor.startRejected();
    };
    await vi.advanceTimersByTimeAsync(1_000);
    expect(target.state).toBe('ready');
    reject();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(target.state).toBe('ready');
    reject();
    await vi.advanceTimersByTimeAsync(10_000);
    // 1 s, then 2 s and 4 s after each rejection: the successes in between did not reset it.
    expect(target.connects.map((connect) => connect.at)).toEqual([0, 1_000, 3_000, 7_000]);
    expect(target.state).toBe('ready');
  });
});
