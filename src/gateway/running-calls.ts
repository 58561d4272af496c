/**
 * @module gateway/running-calls
 * The fast path's calls in flight on 2025-era sessions, by session and JSON-RPC id, so that a
 * `notifications/cancelled` (here, or relayed by another replica) stops them. Kept per session object
 * (a list per session, dropped with it): a call joins and leaves its list in O(1), no key string and no
 * map rehash per call (util/linked-list, issue 17); a cancellation, rare, scans its session's calls.
 */

import type { LegacySession } from './legacy-session.js';
import { LinkedList, type ListNode } from '../util/linked-list.js';

/** One running call: the id its client sent, and its controller. */
interface Running {
  readonly id: string | number;
  readonly abort: AbortController;
}

/** A running call's place, for {@link RunningCalls.untrack}. */
export type RunningCall = ListNode<Running>;

/** Calls in flight by session and request id. */
export class RunningCalls {
  readonly #bySession = new WeakMap<LegacySession, LinkedList<Running>>();
  readonly #cancelled = new WeakSet<AbortController>();

  /** Records a call of `session` under `id` (a client may reuse an id while a call runs: nothing on the wire forbids it). */
  track(session: LegacySession, id: string | number, abort: AbortController): RunningCall {
    let calls = this.#bySession.get(session);
    if (calls === undefined) {
      calls = new LinkedList();
      this.#bySession.set(session, calls);
    }
    return calls.push({ id, abort });
  }

  /** Forgets a call once it ended. */
  untrack(session: LegacySession, call: RunningCall): void {
    this.#bySession.get(session)?.remove(call);
  }

  /** Cancels every call of `session` with that id; false when none runs here. */
  abort(session: LegacySession, id: string | number, reason: string | undefined): boolean {
    const running = this.#bySession.get(session)?.values().filter((call) => call.id === id) ?? [];
    if (running.length === 0) return false;
    for (const call of running) this.#cancelled.add(call.abort);
    for (const call of running) call.abort.abort(new Error(reason ?? 'cancelled by the client'));
    return true;
  }

  /** True when the call was cancelled by its client (it gets no answer). */
  cancelled(abort: AbortController): boolean {
    return this.#cancelled.has(abort);
  }
}
