/**
 * @module gateway/running-calls
 * The fast path's calls in flight on 2025-era sessions, by session and JSON-RPC id, so that a
 * `notifications/cancelled` (here, or relayed by another replica) stops them. Kept per session object
 * (a map per session, dropped with it) and keyed by the id as sent: no key string per call (issue 17).
 */

import type { LegacySession } from './legacy-session.js';
import { innerMap } from '../util/inner-map.js';

/** One id's running calls: one controller, or a list when a client reuses an id (nothing on the wire forbids it). */
type Running = AbortController | AbortController[];

/** Calls in flight by session and request id. */
export class RunningCalls {
  readonly #bySession = new WeakMap<LegacySession, Map<string | number, Running>>();
  readonly #cancelled = new WeakSet<AbortController>();

  /** Records a call of `session` under `id`. */
  track(session: LegacySession, id: string | number, abort: AbortController): void {
    const calls = innerMap(this.#bySession, session);
    const running = calls.get(id);
    if (running === undefined) calls.set(id, abort);
    else if (Array.isArray(running)) running.push(abort);
    else calls.set(id, [running, abort]);
  }

  /** Forgets a call once it ended. */
  untrack(session: LegacySession, id: string | number, abort: AbortController): void {
    const calls = this.#bySession.get(session);
    const running = calls?.get(id);
    if (calls === undefined || running === undefined) return;
    if (running === abort) {
      calls.delete(id);
    } else if (Array.isArray(running)) {
      const left = running.filter((other) => other !== abort);
      if (left.length === 0) calls.delete(id);
      else calls.set(id, left.length === 1 ? (left[0] as AbortController) : left);
    }
  }

  /** Cancels every call of `session` with that id; false when none runs here. */
  abort(session: LegacySession, id: string | number, reason: string | undefined): boolean {
    const found = this.#bySession.get(session)?.get(id);
    if (found === undefined) return false;
    const running = Array.isArray(found) ? found : [found];
    for (const abort of running) this.#cancelled.add(abort);
    for (const abort of running) abort.abort(new Error(reason ?? 'cancelled by the client'));
    return true;
  }

  /** True when the call was cancelled by its client (it gets no answer). */
  cancelled(abort: AbortController): boolean {
    return this.#cancelled.has(abort);
  }
}
