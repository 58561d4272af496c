/**
 * @module connection/lifecycle/supervisor
 * Who brings a server back, and when — one owner for all of it: restarts after a crash or on request
 * (exponential backoff with jitter, up to the restart policy's attempts), the open circuit once they
 * are spent (state `failed`, one probe every `probeIntervalMs`), and background retries of a start
 * that failed (the start-retry policy, also used after a crash when restarts are off). Time comes from
 * an injected {@link Clock}; the attempt itself is the connection's.
 */

import type { RestartPolicy } from '../../config/server-spec.js';
import type { SwitchboardError } from '../../errors.js';
import { backoffDelay } from '../../util/backoff.js';
import type { ServerState } from '../server-state.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';

/** Background retries of a failed start: first delay, doubling with ±20 % jitter, up to the longest. */
export interface StartRetryPolicy {
  delayMs: number;
  maxDelayMs: number;
  /**
   * `false`: no retry until {@link Supervisor.armStartRetry} (an owner that reports the first
   * attempt's result before anything retries it). @default true
   */
  armed?: boolean;
}

/** First delay before retrying a server that failed to start. */
export const DEFAULT_START_RETRY_DELAY_MS = 1_000;
/** Longest delay between background start retries. */
export const DEFAULT_MAX_START_RETRY_DELAY_MS = 30_000;

/** Why an attempt outside a caller's `connect()` begins. */
export type AttemptTrigger = 'start-retry' | 'probe';

/** What the supervisor drives: one connection. */
export interface Supervised {
  readonly closing: boolean;
  readonly state: ServerState;
  lastError: SwitchboardError | undefined;
  setState(to: ServerState, error?: SwitchboardError): void;
  closedError(): SwitchboardError;
  /** Tears the old session down and opens a new one; the state is left alone. */
  attempt(): Promise<void>;
  /** An attempt succeeded (`attempt` counts from 1). */
  ready(reason: string, attempt: number): void;
  /** A fresh `connect()` (sets `connecting`, then `ready` or `failed`), begun by `trigger`. */
  connect(trigger: AttemptTrigger): Promise<void>;
  warn(message: string, fields: Record<string, unknown>): void;
}

/** Options of a {@link Supervisor}. */
export interface SupervisorOptions {
  restart: RestartPolicy | false;
  startRetry?: StartRetryPolicy | undefined;
  clock?: Clock;
  /** @default Math.random */
  random?: () => number;
}

/** Restarts, the circuit and its probe, and start retries of one connection. */
export class Supervisor {
  readonly #target: Supervised;
  readonly #restart: RestartPolicy | undefined;
  readonly #startRetry: StartRetryPolicy | undefined;
  readonly #clock: Clock;
  readonly #random: () => number;
  #reconnecting: Promise<void> | undefined;
  #probeTimer: TimerHandle | undefined;
  #retryTimer: TimerHandle | undefined;
  #retryAttempt = 0;
  /** The backoff step before the last success, for an owner that rejects that start. */
  #attemptBeforeReady = 0;
  #armed: boolean;
  readonly #sleepers = new Set<() => void>();

  constructor(target: Supervised, options: SupervisorOptions) {
    this.#target = target;
    this.#restart = options.restart === false ? undefined : options.restart;
    this.#startRetry = options.startRetry;
    this.#armed = options.startRetry?.armed !== false;
    this.#clock = options.clock ?? systemClock;
    this.#random = options.random ?? Math.random;
  }

  /** The restart under way, if any (callers wait on it). */
  get reconnecting(): Promise<void> | undefined {
    return this.#reconnecting;
  }

  /** True while the circuit is open and a probe is scheduled. */
  get probing(): boolean {
    return this.#probeTimer !== undefined;
  }

  /** True while a background start retry is scheduled. */
  get retryScheduled(): boolean {
    return this.#retryTimer !== undefined;
  }

  /** Restarts now (or after the first backoff delay), sharing one run between concurrent callers. */
  reconnect(reason: string, immediate = true): Promise<void> {
    this.#reconnecting ??= this.#restartLoop(reason, immediate).finally(() => (this.#reconnecting = undefined));
    return this.#reconnecting;
  }

  /**
   * The link ended on its own. `settle` reports it (and tears down); then the server is restarted if
   * the policy allows, else retried in the background if there is a start-retry policy.
   */
  crashed(settle: () => Promise<void>): void {
    const restart = this.#restart !== undefined;
    this.#reconnecting ??= (async () => {
      await settle();
      if (this.#target.closing) return;
      if (restart) await this.#restartLoop('disconnected', false);
      else this.startFailed();
    })().finally(() => (this.#reconnecting = undefined));
    this.#reconnecting.catch(() => {});
  }

  /** A `connect()` begins (`trigger` undefined: a caller's, which also restarts the backoff): pending probes and retries are not needed. */
  connecting(trigger: AttemptTrigger | undefined): void {
    this.#clearProbe();
    this.#clearRetry();
    if (trigger === undefined) this.#retryAttempt = 0;
  }

  /** Start retries may begin; a start that failed before is retried from now. */
  armStartRetry(): void {
    if (this.#armed) return;
    this.#armed = true;
    if (this.#target.state === 'failed' && this.#reconnecting === undefined && this.#probeTimer === undefined) this.startFailed();
  }

  /** A start (not a probe) failed: retried later, with backoff, if there is a start-retry policy. */
  startFailed(): void {
    const policy = this.#startRetry;
    if (policy === undefined || !this.#armed || this.#target.closing || this.#retryTimer !== undefined) return;
    const delay = backoffDelay(this.#retryAttempt, { initialMs: policy.delayMs, maxMs: policy.maxDelayMs, random: this.#random });
    this.#retryAttempt++;
    this.#retryTimer = this.#clock.setTimeout(() => {
      this.#retryTimer = undefined;
      if (this.#target.closing || this.#target.state !== 'failed') return;
      this.#target.connect('start-retry').catch(() => {});
    }, delay);
  }

  /** The connection is up: the next start failure retries from the first delay again. */
  succeeded(): void {
    this.#attemptBeforeReady = this.#retryAttempt;
    this.#retryAttempt = 0;
  }

  /**
   * The owner could not use the start that just succeeded (its tools/list failed): it counts as a
   * failed start, so it is retried with the backoff going on from where it was.
   */
  startRejected(): void {
    this.#retryAttempt = this.#attemptBeforeReady;
    this.startFailed();
  }

  /** Ends timers and wakes a restart waiting out its backoff (it then sees `closing`). */
  close(): void {
    this.#clearProbe();
    this.#clearRetry();
    for (const wake of this.#sleepers) wake();
  }

  /**
   * Attempts with exponential backoff and jitter until one succeeds or the restart policy's attempts
   * are spent; then the state is `failed` (circuit open) and one probe is made every
   * `probeIntervalMs`. Other servers are never affected.
   */
  async #restartLoop(reason: string, immediate: boolean): Promise<void> {
    const target = this.#target;
    const policy = this.#restart;
    const attempts = policy?.attempts ?? 1;
    this.#clearProbe();
    target.setState('reconnecting', target.lastError);
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (target.closing) throw target.closedError();
      if (attempt > 0 || !immediate) {
        await this.#sleep(backoffDelay(attempt, { initialMs: policy?.delayMs ?? 0, maxMs: policy?.maxDelayMs ?? 0, random: this.#random }));
        if (target.closing) throw target.closedError();
      }
      try {
        await target.attempt();
        target.ready(reason, attempt + 1);
        return;
      } catch (error) {
        target.lastError = error as SwitchboardError;
        target.warn('reconnect attempt failed', { attempt: attempt + 1, of: attempts, error: target.lastError.message });
      }
    }
    if (target.closing) throw target.closedError();
    target.setState('failed', target.lastError);
    if (policy !== undefined) this.#scheduleProbe(policy.probeIntervalMs);
    throw target.lastError ?? target.closedError();
  }

  #scheduleProbe(delayMs: number): void {
    this.#clearProbe();
    this.#probeTimer = this.#clock.setTimeout(() => {
      this.#probeTimer = undefined;
      if (this.#target.closing || this.#target.state !== 'failed') return;
      this.#target.connect('probe').catch(() => this.#scheduleProbe(delayMs));
    }, delayMs);
  }

  #clearProbe(): void {
    if (this.#probeTimer !== undefined) this.#clock.clearTimeout(this.#probeTimer);
    this.#probeTimer = undefined;
  }

  #clearRetry(): void {
    if (this.#retryTimer !== undefined) this.#clock.clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
  }

  /** A delay that ends early when the connection is closed. */
  #sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        this.#clock.clearTimeout(timer);
        this.#sleepers.delete(done);
        resolve();
      };
      const timer = this.#clock.setTimeout(done, ms);
      this.#sleepers.add(done);
    });
  }
}
