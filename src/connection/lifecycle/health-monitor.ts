/**
 * @module connection/lifecycle/health-monitor
 * Health checks by `ping` every `intervalMs`: a missed ping marks the server `degraded`, an answer
 * makes it `ready` again, and `misses` in a row declare it dead (the owner then restarts it). One
 * ping at a time; time comes from an injected {@link Clock}.
 */

import type { HealthCheckPolicy } from '../../config/server-spec.js';
import type { SwitchboardError } from '../../errors.js';
import { toSwitchboardError } from '../../to-switchboard-error.js';
import { missedPingsError } from '../connection-errors.js';
import { systemClock, type Clock, type TimerHandle } from './clock.js';

/** What the monitor watches and tells. */
export interface Monitored {
  readonly server: string;
  /** True while the connection is `ready` or `degraded` (the only states checked). */
  serving(): boolean;
  readonly degraded: boolean;
  ping(timeoutMs: number): Promise<unknown>;
  /** A ping was missed, fewer than `misses` in a row. */
  markDegraded(error: SwitchboardError): void;
  /** A ping was answered after a miss. */
  markRecovered(): void;
  /** `misses` pings in a row were missed. */
  dead(error: SwitchboardError): void;
  warn(message: string, fields: Record<string, unknown>): void;
}

/** Pings one connection while it serves. */
export class HealthMonitor {
  readonly #target: Monitored;
  readonly #policy: HealthCheckPolicy;
  readonly #clock: Clock;
  #timer: TimerHandle | undefined;
  #missed = 0;
  #pinging = false;

  constructor(target: Monitored, policy: HealthCheckPolicy, clock: Clock = systemClock) {
    this.#target = target;
    this.#policy = policy;
    this.#clock = clock;
  }

  /** Pings missed in a row so far. */
  get missed(): number {
    return this.#missed;
  }

  /** Starts (or restarts) the checks, from zero misses. */
  start(): void {
    this.stop();
    this.#missed = 0;
    this.#schedule();
  }

  stop(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    this.#timer = this.#clock.setTimeout(() => {
      // Every interval, as a repeating timer would: a slow ping does not push the next check back.
      this.#schedule();
      void this.#check();
    }, this.#policy.intervalMs);
  }

  async #check(): Promise<void> {
    const target = this.#target;
    if (this.#pinging || !target.serving()) return;
    this.#pinging = true;
    try {
      await target.ping(this.#policy.timeoutMs);
      this.#missed = 0;
      if (target.degraded) target.markRecovered();
    } catch (error) {
      if (!target.serving()) return;
      this.#missed++;
      const mapped = toSwitchboardError(error, { server: target.server });
      target.warn('health check missed', { missed: this.#missed, of: this.#policy.misses, error: mapped.message });
      if (this.#missed >= this.#policy.misses) {
        this.stop();
        target.dead(missedPingsError(target.server, this.#missed, mapped));
      } else {
        target.markDegraded(mapped);
      }
    } finally {
      this.#pinging = false;
    }
  }
}
