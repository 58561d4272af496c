/**
 * @module registry/change-feed
 * Changes made by other processes. On PostgreSQL every change is published with `pg_notify` and a
 * dedicated connection LISTENs (reconnecting with backoff; after a reconnect an "unknown" change is
 * reported, since notifications may have been missed). On SQLite — one machine, e.g. the CLI editing
 * while the gateway runs — `PRAGMA data_version` is polled: it moves when another connection commits.
 */

import type { Kysely } from 'kysely';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RegistryDatabase } from './database-schema.js';
import type { OpenedDatabase } from './open-database.js';
import type { RegistryChange } from './registry-types.js';
import { CALL_LEASES_CHANNEL } from './call-lease-store.js';
import { SESSION_STATE_CHANNEL } from './session-state-store.js';

/** The LISTEN/NOTIFY channel. */
export const REGISTRY_CHANNEL = 'switchboard_registry';
/** The channel of ended 2025-era sessions (payload: the SHA-256 of the session id), apart from registry changes. */
export const SESSIONS_CHANNEL = 'switchboard_sessions';
/**
 * The channel of the gateway cluster's event relay (issue 20): batches of user events and watcher
 * announcements between replicas, as JSON the gateway writes and reads (PostgreSQL refuses a
 * payload of 8000 bytes or more: the gateway keeps under it).
 */
export const EVENTS_CHANNEL = 'switchboard_events';
/** The channel of 2025-era session messages for the replica running the call they belong to (issue 20). */
export const CALLS_CHANNEL = 'switchboard_calls';
/** The largest notice {@link ChangeFeed.publishSessionMessage} sends (PostgreSQL refuses payloads of 8000 bytes and more). */
export const MAX_SESSION_MESSAGE_BYTES = 7_900;
/** How often SQLite is polled for other processes' commits. @default 1000 */
export const DEFAULT_WATCH_INTERVAL_MS = 1_000;
const MAX_RECONNECT_DELAY_MS = 30_000;

/**
 * A message of a 2025-era session's client for the call it belongs to, which runs on whichever replica got
 * the call's POST: a `notifications/cancelled`, or the answer to a request the gateway sent on the call's
 * stream (elicitation, sampling). User-bound: only that user's session gets it.
 */
export interface SessionMessageNotice {
  /** SHA-256 of the session id (hex). */
  digest: string;
  userId: string;
  /** The JSON-RPC message, as the client sent it. */
  message: Record<string, unknown>;
}

interface Notification {
  origin: string;
  change: Omit<RegistryChange, 'remote'>;
}

/** Options of a {@link ChangeFeed}. */
export interface ChangeFeedOptions {
  opened: OpenedDatabase;
  /** This process's id: its own notifications are not reported back. */
  origin: string;
  onChange: (change: RegistryChange) => void;
  /** A session ended on another replica (PostgreSQL only). */
  onSessionEnded?: (digest: string) => void;
  /** A message on {@link EVENTS_CHANNEL} (PostgreSQL only; this process's own ones included). */
  onClusterMessage?: (payload: string) => void;
  /** Another replica got a session message for a call that may run here (PostgreSQL only). */
  onSessionMessage?: (notice: SessionMessageNotice) => void;
  /** A replica gave back a call lease of a user who was at the limit (PostgreSQL only). */
  onCallLeaseReleased?: (userId: string) => void;
  /** A replica stored a session's state (PostgreSQL only; payload: the SHA-256 of the session id). */
  onSessionStateChanged?: (digest: string) => void;
  logger: Logger;
  /** @default DEFAULT_WATCH_INTERVAL_MS */
  pollIntervalMs?: number;
}

/** Publishes this process's changes and reports other processes' ones. */
export class ChangeFeed {
  readonly #options: ChangeFeedOptions;
  #closed = false;
  #started = false;
  #timer: NodeJS.Timeout | undefined;
  #dataVersion: number | undefined;
  #listener: import('pg').Client | undefined;
  #reconnectDelayMs = 1_000;

  constructor(options: ChangeFeedOptions) {
    this.#options = options;
  }

  /** Starts watching (idempotent). */
  async start(): Promise<void> {
    if (this.#started || this.#closed) return;
    this.#started = true;
    if (this.#options.opened.backend === 'postgres') await this.#listen();
    else await this.#startPolling();
  }

  /** Tells other processes about a committed change (PostgreSQL only; SQLite is polled). */
  async publish(change: Omit<RegistryChange, 'remote'>): Promise<void> {
    if (this.#options.opened.backend !== 'postgres') return;
    const payload: Notification = { origin: this.#options.origin, change };
    const { sql } = await import('kysely');
    await sql`select pg_notify(${REGISTRY_CHANNEL}, ${JSON.stringify(payload)})`.execute(this.#options.opened.db);
  }

  /** Tells the other replicas that the session with this id digest ended (PostgreSQL only). */
  async publishSessionEnded(digest: string): Promise<void> {
    if (this.#options.opened.backend !== 'postgres') return;
    const { sql } = await import('kysely');
    await sql`select pg_notify(${SESSIONS_CHANNEL}, ${digest})`.execute(this.#options.opened.db);
  }

  /**
   * Sends `payloads` on {@link EVENTS_CHANNEL}, in order, in one statement (one round trip, one
   * transaction: listeners get them in this order). PostgreSQL only.
   */
  async publishClusterMessages(payloads: readonly string[]): Promise<void> {
    if (this.#options.opened.backend !== 'postgres' || payloads.length === 0) return;
    const { sql } = await import('kysely');
    const notifies = sql.join(payloads.map((payload) => sql`pg_notify(${EVENTS_CHANNEL}, ${payload})`));
    // Events need no durability: the transaction of the NOTIFY does not wait for its WAL flush.
    await sql`select set_config('synchronous_commit', 'off', true), ${notifies}`.execute(this.#options.opened.db);
  }

  /** Tells the other replicas about a session message (PostgreSQL only); throws LIMIT_EXCEEDED past {@link MAX_SESSION_MESSAGE_BYTES}. */
  async publishSessionMessage(notice: SessionMessageNotice): Promise<void> {
    if (this.#options.opened.backend !== 'postgres') return;
    const payload = JSON.stringify({ origin: this.#options.origin, ...notice });
    if (Buffer.byteLength(payload) > MAX_SESSION_MESSAGE_BYTES) throw new SwitchboardError(ErrorCode.LimitExceeded, `a session message of ${Buffer.byteLength(payload)} bytes is too large to reach the other replicas (at most ${MAX_SESSION_MESSAGE_BYTES})`);
    const { sql } = await import('kysely');
    await sql`select pg_notify(${CALLS_CHANNEL}, ${payload})`.execute(this.#options.opened.db);
  }

  /** Stops watching; closes the LISTEN connection. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.end().catch(() => {});
  }

  async #startPolling(): Promise<void> {
    this.#dataVersion = await readDataVersion(this.#options.opened.db);
    this.#schedulePoll();
  }

  #schedulePoll(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#poll(), this.#options.pollIntervalMs ?? DEFAULT_WATCH_INTERVAL_MS);
    this.#timer.unref();
  }

  async #poll(): Promise<void> {
    if (this.#closed) return;
    try {
      const version = await readDataVersion(this.#options.opened.db);
      if (this.#closed) return;
      if (version !== this.#dataVersion) {
        this.#dataVersion = version;
        this.#options.onChange({ kind: 'unknown', action: 'unknown', userId: undefined, remote: true });
      }
    } catch (error) {
      if (this.#closed) return;
      this.#options.logger.warn('cannot poll the registry for changes', { error: String(error) });
    }
    this.#schedulePoll();
  }

  async #listen(): Promise<void> {
    const connectionString = this.#options.opened.connectionString;
    if (connectionString === undefined) return;
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString });
    client.on('notification', (message) => {
      if (message.channel === SESSIONS_CHANNEL && message.payload !== undefined && /^[0-9a-f]{64}$/.test(message.payload)) {
        this.#options.onSessionEnded?.(message.payload);
        return;
      }
      if (message.channel === EVENTS_CHANNEL && message.payload !== undefined) {
        this.#options.onClusterMessage?.(message.payload);
        return;
      }
      if (message.channel === CALLS_CHANNEL && message.payload !== undefined) {
        const notice = parseSessionMessage(message.payload, this.#options.origin);
        if (notice !== undefined) this.#options.onSessionMessage?.(notice);
        return;
      }
      if (message.channel === CALL_LEASES_CHANNEL && message.payload !== undefined) {
        this.#options.onCallLeaseReleased?.(message.payload);
        return;
      }
      if (message.channel === SESSION_STATE_CHANNEL && message.payload !== undefined && /^[0-9a-f]{64}$/.test(message.payload)) {
        this.#options.onSessionStateChanged?.(message.payload);
        return;
      }
      if (message.channel !== REGISTRY_CHANNEL || message.payload === undefined) return;
      const notification = parseNotification(message.payload);
      if (notification === undefined || notification.origin === this.#options.origin) return;
      this.#options.onChange({ ...notification.change, remote: true });
    });
    const lost = (error?: unknown): void => {
      if (this.#closed || this.#listener !== client) return;
      this.#listener = undefined;
      this.#options.logger.warn('lost the registry change feed; reconnecting', { error: error === undefined ? 'connection ended' : String(error) });
      client.end().catch(() => {});
      this.#scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    this.#listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${REGISTRY_CHANNEL}`);
      await client.query(`LISTEN ${SESSIONS_CHANNEL}`);
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      await client.query(`LISTEN ${CALLS_CHANNEL}`);
      await client.query(`LISTEN ${CALL_LEASES_CHANNEL}`);
      await client.query(`LISTEN ${SESSION_STATE_CHANNEL}`);
      this.#reconnectDelayMs = 1_000;
    } catch (error) {
      if (this.#listener === client) lost(error);
      else await client.end().catch(() => {});
      return;
    }
    if (this.#closed) await client.end().catch(() => {});
  }

  #scheduleReconnect(): void {
    if (this.#closed) return;
    const delay = this.#reconnectDelayMs;
    this.#reconnectDelayMs = Math.min(delay * 2, MAX_RECONNECT_DELAY_MS);
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.#listen().then(() => {
        // Anything may have changed while we were not listening.
        if (!this.#closed && this.#listener !== undefined) this.#options.onChange({ kind: 'unknown', action: 'unknown', userId: undefined, remote: true });
      });
    }, delay);
    this.#timer.unref();
  }
}

async function readDataVersion(db: Kysely<RegistryDatabase>): Promise<number> {
  const { sql } = await import('kysely');
  const result = await sql<{ data_version: number }>`pragma data_version`.execute(db);
  return Number(result.rows[0]?.data_version ?? 0);
}

function parseNotification(payload: string): Notification | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return undefined;
    const { origin, change } = value as { origin?: unknown; change?: unknown };
    if (typeof origin !== 'string' || typeof change !== 'object' || change === null) return undefined;
    const { kind, action, userId, name } = change as Record<string, unknown>;
    const kinds = ['user', 'server', 'template', 'policy', 'access', 'unknown'];
    const actions = ['added', 'updated', 'removed', 'unknown'];
    if (typeof kind !== 'string' || !kinds.includes(kind) || typeof action !== 'string' || !actions.includes(action)) return undefined;
    if (userId !== null && userId !== undefined && typeof userId !== 'string') return undefined;
    return {
      origin,
      change: {
        kind: kind as RegistryChange['kind'],
        action: action as RegistryChange['action'],
        userId: userId as string | null | undefined,
        ...(typeof name === 'string' ? { name } : {}),
      },
    };
  } catch {
    return undefined;
  }
}

/** A session message notice of another process, or undefined (this one's, or malformed). */
function parseSessionMessage(payload: string, origin: string): SessionMessageNotice | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return undefined;
    const { origin: from, digest, userId, message } = value as Record<string, unknown>;
    if (from === origin || typeof digest !== 'string' || !/^[0-9a-f]{64}$/.test(digest) || typeof userId !== 'string') return undefined;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
    return { digest, userId, message: { ...message } };
  } catch {
    return undefined;
  }
}
