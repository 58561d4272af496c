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

/**
 * A signal's watchers. Nearly always one at a time (a call on its own controller), kept in a field:
 * a `Set` that gains and loses that one on every call rehashes every few calls, each new table in the
 * old generation once the set is old (util/sequence-table, issue 17). More at once share a set.
 */
interface Watchers {
  one: AbortWatcher | undefined;
  more: Set<AbortWatcher> | undefined;
}

const watchers = new WeakMap<AbortSignal, Watchers>();

function onAbort(event: Event): void {
  const signal = event.target as AbortSignal;
  const waiting = watchers.get(signal);
  if (waiting === undefined) return;
  // A copy: a watcher told may stop watching (or start another) while this loop runs.
  const told = waiting.more === undefined ? [] : [...waiting.more];
  if (waiting.one !== undefined) told.unshift(waiting.one);
  waiting.one = undefined;
  waiting.more?.clear();
  for (const watcher of told) watcher.handleEvent();
}

/** Tells `watcher` when `signal` aborts (once), until {@link unwatchAbort}. */
export function watchAbort(signal: AbortSignal, watcher: AbortWatcher): void {
  let waiting = watchers.get(signal);
  if (waiting === undefined) {
    waiting = { one: undefined, more: undefined };
    watchers.set(signal, waiting);
    signal.addEventListener('abort', onAbort, { once: true });
  }
  if (waiting.one === undefined) waiting.one = watcher;
  else (waiting.more ??= new Set()).add(watcher);
}

/** Stops telling `watcher` about `signal`. */
export function unwatchAbort(signal: AbortSignal, watcher: AbortWatcher): void {
  const waiting = watchers.get(signal);
  if (waiting === undefined) return;
  if (waiting.one === watcher) waiting.one = undefined;
  else waiting.more?.delete(watcher);
}

/** True when nothing waits on `signal`: no watcher here and no listener but this module's own. */
export function isUnwatched(signal: AbortSignal): boolean {
  const waiting = watchers.get(signal);
  if (waiting !== undefined && (waiting.one !== undefined || (waiting.more?.size ?? 0) > 0)) return false;
  return getEventListeners(signal, 'abort').length === (waiting === undefined ? 0 : 1);
}
