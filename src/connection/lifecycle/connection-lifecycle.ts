/**
 * @module connection/lifecycle/connection-lifecycle
 * The life of one connection: `connect()` (one attempt within the start-up deadline, shared by
 * concurrent callers), becoming ready, a link that ends on its own, `reconnect()` and `close()`.
 * Restart, backoff, the circuit and start retries are the {@link Supervisor}'s; pings the
 * {@link HealthMonitor}'s; this module holds the facts they share (state, last error, timings).
 */

import type { ServerSpec } from '../../config/server-spec.js';
import { DEFAULT_HEALTH_CHECK_POLICY, DEFAULT_RESTART_POLICY } from '../../config/server-spec.js';
import type { SwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { closedError, notConnectedError } from '../connection-errors.js';
import { ConnectionState } from '../connection-state.js';
import { openWithinDeadline } from '../open-within-deadline.js';
import type { ServerConnectionEvents, ServerConnectionOptions } from '../server-connection-options.js';
import type { ServerLink } from '../server-link.js';
import type { StartTiming } from '../start-within-deadline.js';
import type { Clock } from './clock.js';
import { HealthMonitor } from './health-monitor.js';
import { Supervisor, type AttemptTrigger } from './supervisor.js';

/** How long a disconnect waits for the child's exit status, to report it. */
const EXIT_STATUS_WAIT_MS = 500;

/** Emits one of the connection's events. */
export type EmitConnectionEvent = <K extends keyof ServerConnectionEvents>(event: K, payload: ServerConnectionEvents[K]) => void;

/** What the lifecycle is given. */
export interface LifecycleParts {
  spec: ServerSpec;
  options: ServerConnectionOptions;
  logger: Logger;
  link: ServerLink;
  emit: EmitConnectionEvent;
  /** Sends a ping (health checks) through the connection's request path. */
  ping: (timeoutMs: number) => Promise<unknown>;
  /** @default systemClock */
  clock?: Clock;
}

/** State, start, restart and close of one connection. */
export class ConnectionLifecycle {
  readonly state: ConnectionState;
  lastError: SwitchboardError | undefined;
  readyAt: number | undefined;
  lastStart: StartTiming | undefined;
  restarts = 0;
  readonly #spec: ServerSpec;
  readonly #options: ServerConnectionOptions;
  readonly #logger: Logger;
  readonly #link: ServerLink;
  readonly #emit: EmitConnectionEvent;
  readonly #supervisor: Supervisor;
  readonly #health: HealthMonitor | undefined;
  #connecting: Promise<void> | undefined;
  #closing: Promise<void> | undefined;
  #connectAbort: AbortController | undefined;
  #pendingTeardown: Promise<void> | undefined;
  #everReady = false;
  /** `#everReady` before the last time the connection became ready (restored when that start is rejected). */
  #readyBefore = false;

  constructor(parts: LifecycleParts) {
    const { spec, logger } = parts;
    const server = spec.name;
    this.#spec = spec;
    this.#options = parts.options;
    this.#logger = logger;
    this.#link = parts.link;
    this.#emit = parts.emit;
    this.state = new ConnectionState((from, to, error, trigger) =>
      this.#emit('state-change', { server, from, to, ...(error === undefined ? {} : { error }), ...(trigger === undefined ? {} : { trigger }) }),
    );
    const self = this;
    const warn = (message: string, fields: Record<string, unknown>): void => logger.warn(message, fields);
    this.#supervisor = new Supervisor(
      {
        get closing() { return self.closing; },
        get state() { return self.state.value; },
        get lastError() { return self.lastError; },
        set lastError(error) { self.lastError = error; },
        setState: (to, error) => this.state.set(to, error),
        closedError: () => closedError(server),
        attempt: async () => {
          await this.#link.teardown();
          await this.#establish(undefined);
        },
        ready: (reason, attempt) => this.#becameReady(reason, attempt),
        connect: (trigger) => this.#connectNow(undefined, trigger),
        warn,
      },
      { restart: spec.restart === false ? false : (spec.restart ?? DEFAULT_RESTART_POLICY), startRetry: parts.options.startRetry, ...(parts.clock === undefined ? {} : { clock: parts.clock }) },
    );
    const health = spec.healthCheck === false ? undefined : (spec.healthCheck ?? DEFAULT_HEALTH_CHECK_POLICY);
    if (health !== undefined) {
      const target = {
        server,
        serving: () => this.state.serving,
        get degraded() { return self.state.value === 'degraded'; },
        ping: parts.ping,
        markDegraded: (error: SwitchboardError) => this.state.set('degraded', error),
        markRecovered: () => this.state.set('ready'),
        dead: (error: SwitchboardError) => {
          this.lastError = error;
          this.reconnect('health-check').catch(() => {});
        },
        warn,
      };
      this.#health = new HealthMonitor(target, health, parts.clock);
    }
  }

  get closing(): boolean {
    return this.#closing !== undefined;
  }

  /** The start or restart under way, if any (requests wait on it). */
  get pending(): Promise<void> | undefined {
    return this.#supervisor.reconnecting ?? this.#connecting;
  }

  /** See {@link ServerConnection.connect}. */
  connect(signal: AbortSignal | undefined): Promise<void> {
    return this.#connectNow(signal, undefined);
  }

  #connectNow(signal: AbortSignal | undefined, trigger: AttemptTrigger | undefined): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(closedError(this.#spec.name));
    if (this.state.serving) return Promise.resolve();
    const reconnecting = this.#supervisor.reconnecting;
    if (reconnecting !== undefined) return reconnecting;
    this.#connecting ??= this.#connect(signal, trigger).finally(() => (this.#connecting = undefined));
    return this.#connecting;
  }

  async #connect(signal: AbortSignal | undefined, trigger: AttemptTrigger | undefined): Promise<void> {
    this.#supervisor.connecting(trigger);
    this.state.set('connecting', undefined, trigger);
    try {
      await this.#establish(signal);
      this.#becameReady();
    } catch (error) {
      const mapped = error as SwitchboardError;
      this.lastError = mapped;
      if (this.#closing === undefined) {
        this.state.set('failed', mapped);
        if (trigger !== 'probe') this.#supervisor.startFailed();
      }
      throw mapped;
    }
  }

  /** One attempt at a session within the start-up deadline; on failure it is torn down (without waiting). */
  async #establish(signal: AbortSignal | undefined): Promise<void> {
    const abort = new AbortController();
    this.#connectAbort = abort;
    const spec = this.#spec;
    try {
      await this.#pendingTeardown;
      await openWithinDeadline(this.#link, {
        spec,
        // The first start may have a longer deadline (see ServerSpec.firstStartTimeoutMs).
        deadlineMs: this.#everReady ? spec.startupTimeoutMs : (spec.firstStartTimeoutMs ?? spec.startupTimeoutMs),
        limiter: this.#options.startLimiter,
        abort,
        signal,
        closed: () => (this.#closing === undefined ? undefined : closedError(spec.name)),
        onTiming: (timing) => (this.lastStart = timing),
      });
    } catch (error) {
      // Not awaited: a hung server may take seconds to end, and the caller should hear of the failure
      // now. close() and the next attempt wait for it.
      this.#pendingTeardown = this.#link.teardown().catch((teardownError: unknown) => this.#logger.debug('error while ending a failed server', { error: String(teardownError) }));
      throw error;
    } finally {
      this.#connectAbort = undefined;
    }
  }

  #becameReady(reason = 'probe', attempt = 1): void {
    const again = this.#everReady;
    this.#readyBefore = again;
    this.readyAt = Date.now();
    this.lastError = undefined;
    this.#everReady = true;
    this.#supervisor.succeeded();
    this.state.set('ready');
    const session = this.#link.session;
    // The 2026-07-28 era has no ping.
    if (session?.protocolEra === 'legacy') this.#health?.start();
    this.#logger.debug('connected', { protocolVersion: session?.protocolVersion, transport: this.#link.transportKind, serverInfo: session?.serverInfo });
    if (again) {
      this.restarts++;
      this.#emit('reconnected', { server: this.#spec.name, attempt, reason });
    }
  }

  /** See {@link ServerConnection.rejectStart}. */
  rejectStart(error: SwitchboardError): void {
    if (this.#closing !== undefined || !this.state.serving) return;
    this.#health?.stop();
    this.#everReady = this.#readyBefore;
    this.lastError = error;
    // Failed before the session ends, so its end is not taken for a crash.
    this.state.set('failed', error);
    const previous = this.#pendingTeardown;
    this.#pendingTeardown = (async () => {
      await previous;
      await this.#link.teardown();
    })().catch((teardownError: unknown) => this.#logger.debug('error while ending a rejected server', { error: String(teardownError) }));
    this.#supervisor.startRejected();
  }

  /** See {@link ServerConnection.armStartRetry}. */
  armStartRetry(): void {
    this.#supervisor.armStartRetry();
  }

  /** See {@link ServerConnection.reconnect}. */
  reconnect(reason: string): Promise<void> {
    if (this.#closing !== undefined) return Promise.reject(closedError(this.#spec.name));
    this.#health?.stop();
    return this.#supervisor.reconnect(reason);
  }

  /** The link ended on its own (the process died, the stream broke). */
  linkClosed(): void {
    if (this.#closing !== undefined || !this.state.serving) return;
    this.#health?.stop();
    const restart = this.#spec.restart !== false;
    this.lastError = this.#link.disconnectError();
    this.state.set(restart ? 'reconnecting' : 'failed', this.lastError);
    this.#supervisor.crashed(async () => {
      // stdout closes a moment before the exit status is known; wait briefly to report it.
      await this.#link.stdio?.waitForExit(EXIT_STATUS_WAIT_MS);
      const error = this.#link.disconnectError();
      this.lastError = error;
      this.#logger.warn('server disconnected', { reason: error.message, restarting: restart });
      this.#emit('disconnected', { server: this.#spec.name, error, restarting: restart });
      // A crashed child may leave grandchildren behind; end the group.
      await this.#link.teardown();
    });
  }

  /** Why a request cannot be sent now. */
  notConnectedError(): SwitchboardError {
    if (this.#closing !== undefined) return closedError(this.#spec.name);
    const state = this.state.value;
    return notConnectedError(this.#spec.name, state, this.lastError, state === 'failed' && this.#supervisor.probing);
  }

  /** See {@link ServerConnection.close}; `after` runs last (the owner drops its listeners). */
  close(after: () => void): Promise<void> {
    this.#closing ??= (async () => {
      const closed = closedError(this.#spec.name);
      this.#health?.stop();
      this.#supervisor.close();
      this.#connectAbort?.abort(closed);
      this.#link.session?.failRequests(closed);
      try {
        await this.#connecting?.catch(() => {});
        await this.#supervisor.reconnecting?.catch(() => {});
        await this.#pendingTeardown;
        await this.#link.teardown();
      } finally {
        this.state.set('closed');
        after();
      }
    })();
    return this.#closing;
  }
}
