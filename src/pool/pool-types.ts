/**
 * @module pool/pool-types
 * The options and events of the per-user runtime pool ({@link ClientPool}, {@link UserClient}). Each
 * layer has its own options type: the pool's options say what a deployment tunes, a user client's
 * options are what the pool hands each one, and what reaches the client below is passed on
 * explicitly (`clientOptions`, `connectionOptions`), never by extending the lower layer's bag.
 */

import type { MultiServerClientEvents, MultiServerClientOptions } from '../client/multi-server-client.js';
import type { NamingStrategy, ServerSpec } from '../config/server-spec.js';
import type { ServerConnectionOptions } from '../connection/server-connection.js';
import type { Logger } from '../logger.js';
import type { AuditWriter, AuditWriterOptions } from '../registry/audit-writer.js';
import type { RegistryUser } from '../registry/registry-types.js';
import type { HostResolver } from '../registry/resolve-host.js';
import type { CallGate } from './call-gate.js';
import type { ClientPool } from './client-pool.js';
import type { UserClient } from './user-client.js';

/** Why a client left the pool. */
export type EvictionReason = 'idle' | 'lru' | 'user-removed' | 'closed';

/** What every user's {@link MultiServerClient} is built with (the pool sets the logger, connections and OAuth store). */
export type UserClientClientOptions = Omit<MultiServerClientOptions, 'connectionOptions' | 'logger'>;

/** The connection options of each of one user's servers (e.g. where its server→client requests go). */
export type ConnectionOptionsFor = (spec: ServerSpec) => ServerConnectionOptions;

/** Options of a {@link ClientPool}. */
export interface ClientPoolOptions {
  /** Options of every user's client (OAuth settings here are merged over the pool's per-user token store). */
  clientOptions?: UserClientClientOptions;
  /** Keep call arguments in the audit log. @default false */
  auditArguments?: boolean;
  /** Longest wait for a slot under a user's concurrent-call limit. @default DEFAULT_CALL_QUEUE_TIMEOUT_MS */
  callQueueTimeoutMs?: number;
  /**
   * Longest wait for a replaced user client's running calls before it is closed anyway (a server
   * removed in place drains for `clientOptions.drainTimeoutMs`). @default DEFAULT_DRAIN_TIMEOUT_MS
   */
  drainTimeoutMs?: number;
  /** @default DEFAULT_IDLE_TTL_MS */
  idleTtlMs?: number;
  /** @default DEFAULT_MAX_CLIENTS */
  maxClients?: number;
  /** How often idle clients are looked for. @default idleTtlMs, between 1000 and 60000 */
  sweepIntervalMs?: number;
  /**
   * Write an audit entry per call (batched and retried, see {@link AuditWriter}); an object tunes the
   * writer (buffer size, retry delays). @default true
   */
  audit?: boolean | Omit<AuditWriterOptions, 'logger'>;
  /** Resolver for the address checks of tenant servers' connections. @default the system resolver */
  resolveHost?: HostResolver;
  /** A second gate of limited calls after each user's own limiter (the gateway cluster's leases). @default none */
  callGate?: CallGate;
  /** @default noopLogger */
  logger?: Logger;
  /**
   * Servers every user gets besides the registry's (e.g. the gateway's `--config` file), never written
   * to the database, and the naming strategy of every user's catalog. A registry server of the same
   * name (the user's own or a shared one) hides a server of this list.
   */
  sharedConfig?: SharedConfig;
  /** Connection options of one user's servers (e.g. where their elicitation requests go). */
  connectionOptionsFor?: (user: RegistryUser) => ConnectionOptionsFor | undefined;
  /**
   * OAuth for remote servers with each user's own tokens, kept in the registry
   * ({@link RegistryOAuthTokenStore}; `switchboard login SERVER --user U` stores them). No browser
   * opens from the pool: a server that needs a login fails with the command to run. @default true
   */
  oauth?: boolean;
  /**
   * Keep each server's last known tool names in the registry ({@link ServerRegistry.catalog}), so a
   * user's names stay the same across restarts when a server fails to start. `clientOptions.catalogCache`
   * overrides it. @default true
   */
  catalogCache?: boolean;
}

/** What a deployment tunes of the pool (the gateway sets the shared config, connections and logger itself). */
export type ClientPoolTuning = Omit<ClientPoolOptions, 'sharedConfig' | 'connectionOptionsFor' | 'logger' | 'callGate'>;

/** Servers outside the registry that every user gets. */
export interface SharedConfig {
  servers: readonly ServerSpec[];
  /** @default 'on-conflict' */
  naming?: NamingStrategy;
}

/** Events of a {@link ClientPool}. */
export interface ClientPoolEvents {
  'client-created': { userId: string; user: string };
  /** Emitted after the client has closed (its processes have ended). */
  'client-evicted': { userId: string; user: string; reason: EvictionReason };
  'client-refreshed': { userId: string; user: string };
}

/** A client in use. Release it when done; the pool never evicts a client with leases out. */
export interface ClientLease {
  readonly client: UserClient;
  /** Idempotent. */
  release(): void;
}

/** Events of a {@link UserClient}. */
export interface UserClientEvents {
  /** The user's tool set changed: a server's list changed, a server came or went, or the registry changed (`reload`). */
  'tools-changed': MultiServerClientEvents['tools-changed'];
  'prompts-changed': MultiServerClientEvents['prompts-changed'];
  'resources-changed': MultiServerClientEvents['resources-changed'];
  'server-state-change': MultiServerClientEvents['server-state-change'];
  'tool-call-start': MultiServerClientEvents['tool-call-start'] & { userId: string };
  'tool-call-end': MultiServerClientEvents['tool-call-end'] & { userId: string };
  /** A call refused before anything was sent (invalid arguments, no such tool, its server not up). */
  'tool-call-refused': MultiServerClientEvents['tool-call-refused'] & { userId: string };
  /**
   * Progress of a running call. Only while this event has listeners does the client ask servers for
   * progress on every call (a progress token changes the request a server sees).
   */
  'tool-progress': MultiServerClientEvents['tool-progress'] & { userId: string };
  /** A server's `notifications/message` (`source: 'mcp'`) or a line of its stderr (`source: 'stderr'`). */
  'server-log': MultiServerClientEvents['server-log'];
}

/** What a {@link ClientPool} builds each {@link UserClient} with. */
export interface UserClientOptions {
  clientOptions?: UserClientClientOptions;
  logger?: Logger;
  audit?: AuditWriter;
  /** Keep call arguments in the audit log. @default false */
  auditArguments?: boolean;
  /** @default DEFAULT_CALL_QUEUE_TIMEOUT_MS */
  callQueueTimeoutMs?: number;
  /** Resolver for the pinned fetch of tenant servers. @default the system resolver */
  resolveHost?: HostResolver;
  /** Longest wait for a replaced client's running calls. @default DEFAULT_DRAIN_TIMEOUT_MS */
  drainTimeoutMs?: number;
  /** The second gate of limited calls (see {@link ClientPoolOptions.callGate}). */
  callGate?: CallGate;
  /**
   * Options of each server's connection for this user (e.g. handlers of server→client requests),
   * under the tenant's pinned fetch.
   */
  connectionOptions?: ConnectionOptionsFor;
}
