/**
 * Waiting on one event of a client (a MultiServerClient, a pooled UserClient), with a bound.
 */
import type { TypedEmitter } from '../../src/util/typed-emitter.js';

/** How long a test waits for an event before it fails. */
export const EVENT_TIMEOUT_MS = 15_000;

/** Resolves with the first event `name` of `emitter` that `matches`; rejects after `timeoutMs`. */
export function nextEvent<E extends object, K extends keyof E>(emitter: TypedEmitter<E>, name: K, matches: (payload: E[K]) => boolean = () => true, timeoutMs = EVENT_TIMEOUT_MS): Promise<E[K]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      emitter.off(name, listener);
      reject(new Error(`no ${String(name)} event within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: E[K]): void => {
      if (!matches(payload)) return;
      clearTimeout(timer);
      emitter.off(name, listener);
      resolve(payload);
    };
    emitter.on(name, listener);
  });
}
