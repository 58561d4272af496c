/**
 * @module connection/connection-state
 * The state of one connection and its transitions: each change is reported once (with the error that
 * caused it), a repeat is no change. "Serving" means `ready` or `degraded`: requests are sent.
 */

import type { SwitchboardError } from '../errors.js';
import type { AttemptTrigger } from './lifecycle/supervisor.js';
import type { ServerState } from './server-state.js';

/** Receives each transition. */
export type StateListener = (from: ServerState, to: ServerState, error: SwitchboardError | undefined, trigger: AttemptTrigger | undefined) => void;

/** A state with its transition rule. */
export class ConnectionState {
  #value: ServerState = 'connecting';
  readonly #listener: StateListener;

  constructor(listener: StateListener) {
    this.#listener = listener;
  }

  get value(): ServerState {
    return this.#value;
  }

  /** True in `ready` and `degraded`. */
  get serving(): boolean {
    return this.#value === 'ready' || this.#value === 'degraded';
  }

  /** Moves to `to`; `trigger` says why a background attempt began (on `connecting`). */
  set(to: ServerState, error?: SwitchboardError, trigger?: AttemptTrigger): void {
    const from = this.#value;
    if (from === to) return;
    this.#value = to;
    this.#listener(from, to, error, trigger);
  }
}
