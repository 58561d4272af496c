/**
 * @module gateway/cluster-event-relay
 * `/api/events` for the whole cluster (issue 20): a user's events on every replica reach their
 * `/api/events` streams on any replica, each with the `replica` it came from. Over PostgreSQL
 * LISTEN/NOTIFY on the registry's own LISTEN connection (channel `switchboard_events`), with no
 * database work on the call path and none while nobody watches:
 *
 * - **Presence.** A replica with `/api/events` streams announces the watched user ids (`watch`) when
 *   a user gets their first stream there and then every {@link WATCH_ANNOUNCE_INTERVAL_MS}; `unwatch`
 *   when the last one ends. Other replicas keep an announcement for {@link WATCH_EXPIRY_MS} (a dead
 *   replica's watchers expire); a replica that starts asks (`ask`) and hears them at once.
 * - **Publishing.** Only while a user is watched on another replica does this replica listen to that
 *   user's client here; its events are queued in memory and sent every {@link EVENT_RELAY_FLUSH_MS}
 *   as few NOTIFYs as fit (under 8000 bytes each, big payloads trimmed and marked `truncated`), in
 *   one statement (one round trip), a call's progress ticks coalesced to the latest one per flush.
 * - **Receiving.** Events of other replicas go to this replica's streams of that user.
 *
 * On SQLite (one replica) it does nothing: streams see their replica's events, as before.
 */

import type { Logger } from '../logger.js';
import type { ServerRegistry } from '../registry/index.js';
import type { UserClient, UserClientEvents } from '../pool/index.js';
import { HEARTBEAT_INTERVAL_MS } from './replica-heartbeat.js';
import { encodeControl, packEvents, parseRelayMessage, RELAYED_EVENT_NAMES, type RelayedEvent, type RelayedEventName, type RelayMessage } from './relay-message.js';

/** How long events wait to be sent together. @default 100 */
export const EVENT_RELAY_FLUSH_MS = 100;
/** How often a replica repeats who is watched on it. @default HEARTBEAT_INTERVAL_MS (2000) */
export const WATCH_ANNOUNCE_INTERVAL_MS = HEARTBEAT_INTERVAL_MS;
/** A watch announcement not repeated for this long has expired. @default 3 × WATCH_ANNOUNCE_INTERVAL_MS */
export const WATCH_EXPIRY_MS = 3 * WATCH_ANNOUNCE_INTERVAL_MS;
/** Events waiting beyond this many are dropped (and counted) until the next flush. @default 5000 */
export const EVENT_RELAY_MAX_PENDING = 5_000;

/** A flush sends its messages in statements of at most this many NOTIFYs (one round trip each). @default 16 */
const MESSAGES_PER_STATEMENT = 16;

/** An event of another replica, as a local stream receives it. */
export interface RemoteUserEvent {
  event: RelayedEventName;
  payload: Record<string, unknown>;
  time: number;
  replica: string;
}

type Listeners = { [K in RelayedEventName]: (payload: UserClientEvents[K]) => void };

/** What the relay needs of a user's client (a {@link UserClient}): its events. */
export interface UserEventSource {
  on<K extends keyof UserClientEvents>(event: K, listener: (payload: UserClientEvents[K]) => void): unknown;
  off<K extends keyof UserClientEvents>(event: K, listener: (payload: UserClientEvents[K]) => void): unknown;
}

/** The relay of one replica. */
export class ClusterEventRelay {
  readonly #registry: ServerRegistry;
  readonly #replica: string;
  readonly #logger: Logger;
  readonly #enabled: boolean;
  readonly #flushMs: number;
  /** Streams here, by user id. */
  readonly #subscribers = new Map<string, Set<(event: RemoteUserEvent) => void>>();
  /** Users watched on other replicas: user id → replica id → expiry (ms since the epoch). */
  readonly #watchedElsewhere = new Map<string, Map<string, number>>();
  /** This replica's clients, by user id (from leases, until evicted). */
  readonly #clients = new Map<string, UserEventSource>();
  /** The listeners on the clients of users watched elsewhere. */
  readonly #attached = new Map<string, { client: UserEventSource; listeners: Listeners }>();
  #pending: RelayedEvent[] = [];
  /** Index in {@link #pending} of a call's progress, by `user callId server`. */
  #progressAt = new Map<string, number>();
  #dropped = 0;
  #flushTimer: NodeJS.Timeout | undefined;
  #announceTimer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #failing = false;
  #closed = false;
  readonly #onMessage = (payload: string): void => this.#receive(payload);

  /** `flushMs` defaults to {@link EVENT_RELAY_FLUSH_MS}, `announceMs` to {@link WATCH_ANNOUNCE_INTERVAL_MS}. */
  constructor(registry: ServerRegistry, replica: string, logger: Logger, options: { flushMs?: number; announceMs?: number } = {}) {
    this.#registry = registry;
    this.#replica = replica;
    this.#logger = logger;
    this.#enabled = registry.backend === 'postgres';
    this.#flushMs = options.flushMs ?? EVENT_RELAY_FLUSH_MS;
    if (!this.#enabled) return;
    registry.on('cluster-message', this.#onMessage);
    this.#announceTimer = setInterval(() => this.#tick(), options.announceMs ?? WATCH_ANNOUNCE_INTERVAL_MS);
    this.#announceTimer.unref();
    this.#send(encodeControl({ kind: 'ask', replica }));
  }

  /** Users watched on other replicas now (for `/api/cluster`). */
  get watchedElsewhere(): number {
    this.#expire(Date.now());
    return this.#watchedElsewhere.size;
  }

  /** Remembers `userId`'s client here (called on every lease; cheap when known). */
  track(userId: string, client: UserEventSource): void {
    if (!this.#enabled || this.#clients.get(userId) === client) return;
    this.#clients.set(userId, client);
    this.#sync(userId);
  }

  /** Forgets `userId`'s client (it was evicted from the pool). */
  untrack(userId: string): void {
    this.#clients.delete(userId);
    this.#sync(userId);
  }

  /**
   * Delivers `userId`'s events of other replicas to `onEvent` until the returned function is called
   * (an `/api/events` stream); the other replicas are told someone watches the user.
   */
  subscribe(userId: string, onEvent: (event: RemoteUserEvent) => void): () => void {
    if (!this.#enabled) return () => {};
    let set = this.#subscribers.get(userId);
    const first = set === undefined;
    if (set === undefined) {
      set = new Set();
      this.#subscribers.set(userId, set);
    }
    set.add(onEvent);
    if (first) this.#send(encodeControl({ kind: 'watch', replica: this.#replica, users: [userId] }));
    return () => {
      if (set.delete(onEvent) && set.size === 0 && this.#subscribers.get(userId) === set) {
        this.#subscribers.delete(userId);
        if (!this.#closed) this.#send(encodeControl({ kind: 'unwatch', replica: this.#replica, users: [userId] }));
      }
    };
  }

  /** Sends what is queued, tells the others nobody watches here any more, stops. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (!this.#enabled) return;
    this.#registry.off('cluster-message', this.#onMessage);
    clearInterval(this.#announceTimer);
    clearTimeout(this.#flushTimer);
    for (const userId of [...this.#attached.keys()]) this.#detach(userId);
    await this.#flush();
    const users = [...this.#subscribers.keys()];
    this.#subscribers.clear();
    if (users.length > 0) await this.#publish(encodeControl({ kind: 'unwatch', replica: this.#replica, users }));
  }

  #tick(): void {
    const now = Date.now();
    this.#expire(now);
    if (this.#subscribers.size > 0) this.#send(encodeControl({ kind: 'watch', replica: this.#replica, users: [...this.#subscribers.keys()] }));
  }

  #expire(now: number): void {
    for (const [userId, replicas] of this.#watchedElsewhere) {
      for (const [replica, expiry] of replicas) if (expiry <= now) replicas.delete(replica);
      if (replicas.size === 0) {
        this.#watchedElsewhere.delete(userId);
        this.#sync(userId);
      }
    }
  }

  #receive(payload: string): void {
    if (this.#closed) return;
    const message = parseRelayMessage(payload);
    if (message === undefined || message.replica === this.#replica) return;
    this.#handle(message);
  }

  #handle(message: RelayMessage): void {
    switch (message.kind) {
      case 'ask':
        if (this.#subscribers.size > 0) this.#send(encodeControl({ kind: 'watch', replica: this.#replica, users: [...this.#subscribers.keys()] }));
        return;
      case 'watch':
        for (const userId of message.users) {
          const replicas = this.#watchedElsewhere.get(userId) ?? new Map<string, number>();
          replicas.set(message.replica, Date.now() + WATCH_EXPIRY_MS);
          this.#watchedElsewhere.set(userId, replicas);
          this.#sync(userId);
        }
        return;
      case 'unwatch':
        for (const userId of message.users) {
          const replicas = this.#watchedElsewhere.get(userId);
          replicas?.delete(message.replica);
          if (replicas?.size === 0) this.#watchedElsewhere.delete(userId);
          this.#sync(userId);
        }
        return;
      case 'events':
        for (const event of message.events) {
          for (const onEvent of this.#subscribers.get(event.user) ?? []) onEvent({ event: event.event, payload: event.payload, time: event.time, replica: message.replica });
        }
        return;
    }
  }

  /** Listens to `userId`'s client exactly while it is here and watched elsewhere. */
  #sync(userId: string): void {
    const client = this.#closed ? undefined : this.#clients.get(userId);
    const wanted = client !== undefined && this.#watchedElsewhere.has(userId);
    const attached = this.#attached.get(userId);
    if (attached !== undefined && (!wanted || attached.client !== client)) this.#detach(userId);
    if (wanted && this.#attached.get(userId) === undefined) this.#attach(userId, client);
  }

  #attach(userId: string, client: UserEventSource): void {
    const queue = (event: RelayedEventName, payload: Record<string, unknown>): void => this.#queue({ user: userId, event, payload, time: Date.now() });
    const listeners: Listeners = {
      'server-state-change': ({ server, from, to, error }) => queue('server-state-change', { server, from, to, ...(error === undefined ? {} : { error: error.toJSON() }) }),
      'tool-call-start': (event) => queue('tool-call-start', { ...event }),
      'tool-call-end': (event) => queue('tool-call-end', { ...event }),
      'tool-call-refused': (event) => queue('tool-call-refused', { ...event }),
      'tool-progress': (event) => queue('tool-progress', { ...event }),
      'server-log': (event) => queue('server-log', { ...event }),
      'tools-changed': (event) => queue('tools-changed', { ...event }),
    };
    for (const name of RELAYED_EVENT_NAMES) on(client, name, listeners);
    this.#attached.set(userId, { client, listeners });
  }

  #detach(userId: string): void {
    const attached = this.#attached.get(userId);
    if (attached === undefined) return;
    this.#attached.delete(userId);
    for (const name of RELAYED_EVENT_NAMES) off(attached.client, name, attached.listeners);
  }

  #queue(event: RelayedEvent): void {
    if (this.#closed) return;
    if (event.event === 'tool-progress') {
      // A busy call's progress ticks: only the latest of a flush is sent.
      const key = `${event.user} ${String(event.payload.callId)} ${String(event.payload.server)}`;
      const index = this.#progressAt.get(key);
      if (index !== undefined) {
        this.#pending[index] = event;
        return;
      }
      this.#progressAt.set(key, this.#pending.length);
    }
    if (this.#pending.length >= EVENT_RELAY_MAX_PENDING) {
      this.#dropped++;
      return;
    }
    this.#pending.push(event);
    this.#flushTimer ??= setTimeout(() => {
      this.#flushTimer = undefined;
      void this.#flush();
    }, this.#flushMs);
  }

  #flush(): Promise<void> {
    this.#flushing = this.#flushing.then(async () => {
      const events = this.#pending;
      this.#pending = [];
      this.#progressAt = new Map();
      if (this.#dropped > 0) {
        this.#logger.warn('cluster event relay dropped events (the database is slow or away)', { dropped: this.#dropped });
        this.#dropped = 0;
      }
      const messages = packEvents(this.#replica, events);
      for (let start = 0; start < messages.length; start += MESSAGES_PER_STATEMENT) await this.#publish(...messages.slice(start, start + MESSAGES_PER_STATEMENT));
    });
    return this.#flushing;
  }

  #send(message: string): void {
    void this.#publish(message);
  }

  async #publish(...messages: string[]): Promise<void> {
    try {
      await this.#registry.publishClusterMessages(messages);
      if (this.#failing) this.#logger.info('the cluster event relay reaches the database again', {});
      this.#failing = false;
    } catch (error) {
      if (!this.#failing) this.#logger.warn('cannot relay events to the other replicas', { error: String(error) });
      this.#failing = true;
    }
  }
}

function on<K extends RelayedEventName>(client: UserEventSource, name: K, listeners: Listeners): void {
  client.on(name, listeners[name]);
}

function off<K extends RelayedEventName>(client: UserEventSource, name: K, listeners: Listeners): void {
  client.off(name, listeners[name]);
}
