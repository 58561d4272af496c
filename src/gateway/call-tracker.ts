/**
 * @module gateway/call-tracker
 * The tool calls running through the gateway, per user and upstream server. It answers two
 * questions: which downstream client made the call an upstream request belongs to (an upstream
 * server's elicitation, sampling or log message is sent to the client whose call it is serving),
 * and what is still running when the gateway shuts down (it waits for them, then cancels them).
 */

import { isUnwatched } from '../util/abort-watch.js';
import { LinkedList } from '../util/linked-list.js';

/**
 * Controllers kept for reuse (see {@link CallTracker.begin}'s `reuse`). Making an `AbortController`
 * and its signal with a first listener cost ~6–8 µs on Node 20 (its `EventTarget`), a visible share
 * of a fast-path call (bench/README.md, issue 17); reusing one that never aborted and has no listener
 * left costs ~0.6 µs.
 */
const MAX_SPARE_CONTROLLERS = 64;

/** How a call reaches the downstream client that made it. */
export interface CallDownstream {
  /** One object per downstream connection (a 2025 session, a stdio connection, one 2026 request). */
  readonly key: object;
  readonly era: 'legacy' | 'modern' | 'api';
  /** The client declared it can answer `elicitation/create`. */
  readonly canElicit: boolean;
  /** The client declared URL-mode elicitation (`capabilities.elicitation.url`): it shows a server's URL to its user. */
  readonly canElicitUrl?: boolean;
  /** The client declared it can answer `sampling/createMessage`. */
  readonly canSample: boolean;
  /** Sends a request to the client, related to the call (on the call's own stream). */
  request?(method: 'elicitation/create' | 'sampling/createMessage', params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
  /** Sends an upstream log message to the client, if its level lets it through. */
  log?(level: string, data: unknown, logger: string | undefined): void;
}

/** A call in flight. */
export interface TrackedCall {
  readonly userId: string;
  /** The upstream server the call went to. */
  readonly server: string;
  readonly downstream: CallDownstream;
  /** Aborted when the gateway gives up waiting at shutdown. */
  readonly abort: AbortController;
}

/** Calls in flight. */
export class CallTracker {
  /** A list, not a set per user: no rehash every few dozen calls (util/linked-list, issue 17). */
  readonly #calls = new LinkedList<TrackedCall>();
  #idleWaiters: Array<() => void> = [];
  readonly #spare: AbortController[] = [];

  /** Calls in flight now. */
  get size(): number {
    return this.#calls.size;
  }

  /**
   * Records a call; returns the function that ends it (idempotent). `call.abort.signal` aborts when
   * `signal` (the downstream request's) does, or when the gateway gives up at shutdown: pass it on.
   * `reuse`: the caller keeps neither the controller nor its signal once `end` has run (the fast
   * path), so a controller that never aborted and has no listener left serves a later call.
   */
  begin(userId: string, server: string, downstream: CallDownstream, signal?: AbortSignal, reuse = false): { call: TrackedCall; end: () => void } {
    const call: TrackedCall = { userId, server, downstream, abort: (reuse ? this.#spare.pop() : undefined) ?? new AbortController() };
    // One controller fed by the request's signal (not AbortSignal.any: cheaper, and its listener goes with the call).
    const follow = (): void => call.abort.abort(signal?.reason);
    if (signal?.aborted === true) follow();
    else signal?.addEventListener('abort', follow, { once: true });
    const node = this.#calls.push(call);
    let ended = false;
    return {
      call,
      end: () => {
        if (ended) return;
        ended = true;
        signal?.removeEventListener('abort', follow);
        this.#calls.remove(node);
        if (reuse && signal === undefined) this.#keep(call.abort);
        if (this.#calls.size === 0) for (const wake of this.#idleWaiters.splice(0)) wake();
      },
    };
  }

  /** The calls of `userId` to `server`, oldest first. */
  callsTo(userId: string, server: string): TrackedCall[] {
    return this.#calls.values().filter((call) => call.userId === userId && call.server === server);
  }

  /** Resolves true when no call is in flight, or false after `timeoutMs` (or once `signal` aborts). */
  whenIdle(timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
    if (this.#calls.size === 0) return Promise.resolve(true);
    if (signal?.aborted === true) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (idle: boolean): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', giveUp);
        this.#idleWaiters = this.#idleWaiters.filter((waiter) => waiter !== wake);
        resolve(idle);
      };
      const wake = (): void => settle(true);
      const giveUp = (): void => settle(false);
      const timer = setTimeout(giveUp, timeoutMs);
      signal?.addEventListener('abort', giveUp, { once: true });
      this.#idleWaiters.push(wake);
    });
  }

  /** Keeps `abort` for a later call when nothing can tell it was used: not aborted, no listener left. */
  #keep(abort: AbortController): void {
    if (this.#spare.length >= MAX_SPARE_CONTROLLERS || abort.signal.aborted || !isUnwatched(abort.signal)) return;
    this.#spare.push(abort);
  }

  /** Cancels every call in flight. */
  abortAll(reason: Error): void {
    for (const call of this.#calls.values()) call.abort.abort(reason);
  }
}
