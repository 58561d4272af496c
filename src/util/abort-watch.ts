/**
 * @module util/abort-watch
 * Who waits on an `AbortSignal`, kept here rather than as one `addEventListener` and one
 * `removeEventListener` per request: Node's `EventTarget` made that pair ~3–4 % of the gateway's CPU
 * per tool call (bench/README.md, issue 17). A signal gets one listener of this module, once, for its
 * life; requests join and leave its set of watchers. A signal reused for many calls (the gateway's
 * spare controllers, a caller's long-lived signal) keeps that one listener.
 */

import { getEventListeners } from 'node:events';

/** What a watcher is told when its signal aborts (the `EventListenerObject` shape). */
export interface AbortWatcher {
  handleEvent(): void;
}

const watchers = new WeakMap<AbortSignal, Set<AbortWatcher>>();

function onAbort(event: Event): void {
  const signal = event.target as AbortSignal;
  const waiting = watchers.get(signal);
  if (waiting === undefined) return;
  // A copy: a watcher told may stop watching (or start another) while this loop runs.
  const told = [...waiting];
  waiting.clear();
  for (const watcher of told) watcher.handleEvent();
}

/** Tells `watcher` when `signal` aborts (once), until {@link unwatchAbort}. */
export function watchAbort(signal: AbortSignal, watcher: AbortWatcher): void {
  let waiting = watchers.get(signal);
  if (waiting === undefined) {
    waiting = new Set();
    watchers.set(signal, waiting);
    signal.addEventListener('abort', onAbort, { once: true });
  }
  waiting.add(watcher);
}

/** Stops telling `watcher` about `signal`. */
export function unwatchAbort(signal: AbortSignal, watcher: AbortWatcher): void {
  watchers.get(signal)?.delete(watcher);
}

/** True when nothing waits on `signal`: no watcher here and no listener but this module's own. */
export function isUnwatched(signal: AbortSignal): boolean {
  const waiting = watchers.get(signal);
  if (waiting !== undefined && waiting.size > 0) return false;
  return getEventListeners(signal, 'abort').length === (waiting === undefined ? 0 : 1);
}
