/**
 * @module dashboard/state/event-hub
 * The one `EventSource` of the page, on `/api/events`. It keeps the last events for the Activity page
 * (so nothing is lost while another page is open) and tells the pages when to reload their data.
 */

import { activityOf, appendActivity, EVENT_NAMES, type ActivityItem, type EventName } from '../model/activity.js';

/** Events kept for the Activity page. @default 1000 */
export const ACTIVITY_BUFFER_SIZE = 1000;

/** Whether the stream is flowing. */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting';

type Listener = () => void;

/** Owns the event stream; `close()` ends it. */
export class EventHub {
  readonly #source: EventSource;
  readonly #items: ActivityItem[] = [];
  readonly #itemListeners = new Set<Listener>();
  readonly #changeListeners = new Map<EventName, Set<Listener>>();
  readonly #statusListeners = new Set<Listener>();
  #status: StreamStatus = 'connecting';
  #nextId = 1;
  #closed = false;

  constructor(url: string) {
    this.#source = new EventSource(url);
    this.#source.onopen = () => this.#setStatus('live');
    // EventSource reconnects by itself after an error; the page only says so.
    this.#source.onerror = () => this.#setStatus('reconnecting');
    for (const name of EVENT_NAMES) {
      this.#source.addEventListener(name, (event) => this.#receive(name, event));
    }
  }

  get status(): StreamStatus {
    return this.#status;
  }

  /** The kept events, oldest first. */
  get items(): readonly ActivityItem[] {
    return this.#items;
  }

  /** Called after each kept event; returns the unsubscribe function. */
  onItem(listener: Listener): () => void {
    this.#itemListeners.add(listener);
    return () => this.#itemListeners.delete(listener);
  }

  /** Called when one of `names` arrives (to reload data); returns the unsubscribe function. */
  onEvent(names: readonly EventName[], listener: Listener): () => void {
    for (const name of names) {
      const set = this.#changeListeners.get(name) ?? new Set();
      set.add(listener);
      this.#changeListeners.set(name, set);
    }
    return () => {
      for (const name of names) this.#changeListeners.get(name)?.delete(listener);
    };
  }

  onStatus(listener: Listener): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** Forgets the kept events (the Activity page's "Clear"). */
  clear(): void {
    this.#items.length = 0;
    for (const listener of this.#itemListeners) listener();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#source.close();
    this.#itemListeners.clear();
    this.#changeListeners.clear();
    this.#statusListeners.clear();
  }

  #receive(name: EventName, event: Event): void {
    if (this.#closed || !(event instanceof MessageEvent) || typeof event.data !== 'string') return;
    this.#setStatus('live');
    let payload: unknown;
    try {
      payload = JSON.parse(event.data);
    } catch {
      return;
    }
    const item = activityOf(name, payload, this.#nextId++, Date.now());
    if (item !== undefined) {
      appendActivity(this.#items, item, ACTIVITY_BUFFER_SIZE);
      for (const listener of this.#itemListeners) listener();
    }
    for (const listener of this.#changeListeners.get(name) ?? []) listener();
  }

  #setStatus(status: StreamStatus): void {
    if (this.#status === status) return;
    this.#status = status;
    for (const listener of this.#statusListeners) listener();
  }
}
