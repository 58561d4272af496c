/**
 * @module pool/client-pool
 * One {@link UserClient} per user, created on first use from the registry, kept while in use, evicted
 * after an idle TTL and by least-recent use when over a cap — closing its connections and ending its
 * server processes. A registry change for a user refreshes only that user's client (shared servers
 * and templates concern everyone; a client whose configuration did not change is left alone).
 *
 * @example
 * ```ts
 * const pool = new ClientPool(registry, { idleTtlMs: 10 * 60_000, maxClients: 200 });
 * const user = await registry.verifyToken(bearer);
 * const lease = await pool.acquire(user);
 * try {
 *   const tools = lease.client.listTools();
 *   const result = await lease.client.callTool('search', { q: 'mcp' });
 * } finally {
 *   lease.release();
 * }
 * ```
 */

import type { OAuthClientOptions } from '../auth/oauth-client-options.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import { AuditWriter, type AuditWriterStats } from '../registry/audit-writer.js';
import { RegistryOAuthTokenStore } from '../registry/registry-oauth-token-store.js';
import type { RegistryChange, RegistryUser, UserRef, UserServerConfig } from '../registry/registry-types.js';
import type { ServerRegistry } from '../registry/server-registry.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import type { ClientLease, ClientPoolEvents, ClientPoolOptions, EvictionReason } from './pool-types.js';
import { UserClient } from './user-client.js';

/** A client unused this long is closed. @default 600000 (10 minutes) */
export const DEFAULT_IDLE_TTL_MS = 10 * 60_000;
/** Most clients kept at once; the least recently used idle one goes first. @default 100 */
export const DEFAULT_MAX_CLIENTS = 100;

interface PoolEntry {
  userId: string;
  userName: string;
  creating: Promise<UserClient>;
  client: UserClient | undefined;
  leases: number;
  lastUsed: number;
  refreshing: Promise<void> | undefined;
  refreshAgain: boolean;
}

/** Per-user clients over a {@link ServerRegistry}. */
export class ClientPool extends TypedEmitter<ClientPoolEvents> {
  readonly #registry: ServerRegistry;
  readonly #options: ClientPoolOptions;
  readonly #logger: Logger;
  readonly #entries = new Map<string, PoolEntry>();
  /** The entry last in `#entries` as far as {@link #touch} knows (a stale one only costs a move). */
  #newest: PoolEntry | undefined;
  readonly #closingClients = new Set<Promise<void>>();
  readonly #timer: NodeJS.Timeout;
  readonly #onChange: (change: RegistryChange) => void;
  readonly #audit: AuditWriter | undefined;
  #closing: Promise<void> | undefined;

  constructor(registry: ServerRegistry, options: ClientPoolOptions = {}) {
    super();
    this.#registry = registry;
    this.#options = options;
    this.#logger = options.logger ?? noopLogger;
    this.onListenerError = (error, event) => this.#logger.error('pool event listener threw', { event, error: String(error) });
    this.#audit = options.audit === false ? undefined : new AuditWriter(registry.audit, { ...(options.audit === true ? {} : options.audit), logger: this.#logger });
    this.#onChange = (change) => this.#applyChange(change);
    registry.on('change', this.#onChange);
    const idleTtlMs = options.idleTtlMs ?? DEFAULT_IDLE_TTL_MS;
    if (!(idleTtlMs > 0) || (options.maxClients !== undefined && !(options.maxClients >= 1))) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, 'ClientPool: idleTtlMs must be positive and maxClients at least 1');
    }
    this.#timer = setInterval(() => void this.evictIdle(), options.sweepIntervalMs ?? Math.max(1_000, Math.min(idleTtlMs, 60_000)));
    this.#timer.unref();
  }

  /** Clients held now (including ones still connecting). */
  get size(): number {
    return this.#entries.size;
  }

  /** The audit writer's counters (written, buffered, failed writes, drops); undefined with `audit: false`. */
  auditStats(): AuditWriterStats | undefined {
    return this.#audit?.stats();
  }

  /** True when `userId` has a client in the pool. */
  has(userId: string): boolean {
    return this.#entries.has(userId);
  }

  /**
   * The client of `user`, created on first use (its servers connect concurrently, each within its
   * start-up deadline). Throws NOT_FOUND for an unknown user.
   */
  async acquire(user: UserRef | RegistryUser): Promise<ClientLease> {
    if (this.#closing !== undefined) throw new SwitchboardError(ErrorCode.ServerDisconnected, 'the client pool is closed');
    const found = isRegistryUser(user) ? user : await this.#registry.users.get(user);
    let entry = this.#entries.get(found.id);
    if (entry === undefined) entry = this.#create(found);
    else this.#touch(entry);
    entry.leases++;
    entry.lastUsed = Date.now();
    let client: UserClient;
    try {
      client = await entry.creating;
    } catch (error) {
      entry.leases--;
      throw error;
    }
    return leaseOf(entry, client);
  }

  /**
   * The lease of `user`'s client when it is up already, at once: no promise and no await (the
   * gateway's per-call path, issue 17). Undefined when it is still starting, not made yet or the pool
   * is closing: then {@link acquire}.
   */
  leaseNow(user: RegistryUser): ClientLease | undefined {
    const entry = this.#entries.get(user.id);
    if (this.#closing !== undefined || entry?.client === undefined) return undefined;
    this.#touch(entry);
    entry.leases++;
    entry.lastUsed = Date.now();
    return leaseOf(entry, entry.client);
  }

  /**
   * Most recently used last: the map's order is the LRU order. A move is a delete and a set, and a map
   * moved on every call rehashes every few calls (util/sequence-table, issue 17): the newest is not moved.
   */
  #touch(entry: PoolEntry): void {
    if (this.#newest === entry) return;
    this.#entries.delete(entry.userId);
    this.#entries.set(entry.userId, entry);
    this.#newest = entry;
  }

  /** Runs `task` with the client of `user`, releasing it after. */
  async withClient<T>(user: UserRef | RegistryUser, task: (client: UserClient) => Promise<T>): Promise<T> {
    const lease = await this.acquire(user);
    try {
      return await task(lease.client);
    } finally {
      lease.release();
    }
  }

  /** Closes clients idle longer than the TTL; returns how many. */
  async evictIdle(now: number = Date.now()): Promise<number> {
    const idleTtlMs = this.#options.idleTtlMs ?? DEFAULT_IDLE_TTL_MS;
    const idle = [...this.#entries.values()].filter((entry) => isIdle(entry) && now - entry.lastUsed >= idleTtlMs);
    await Promise.all(idle.map((entry) => this.#evict(entry, 'idle')));
    return idle.length;
  }

  /** Re-reads a user's servers from the registry and applies them. */
  refresh(userId: string): Promise<void> {
    const entry = this.#entries.get(userId);
    if (entry === undefined) return Promise.resolve();
    if (entry.refreshing !== undefined) {
      // One refresh at a time per user; changes arriving meanwhile cause one more pass.
      entry.refreshAgain = true;
      return entry.refreshing;
    }
    entry.refreshing = (async () => {
      try {
        do {
          entry.refreshAgain = false;
          const client = await entry.creating;
          if (this.#entries.get(userId) !== entry || client.closed) return;
          let config;
          try {
            config = await this.#configFor(userId);
          } catch (error) {
            if (error instanceof SwitchboardError && error.code === ErrorCode.NotFound) {
              await this.#evict(entry, 'user-removed');
              return;
            }
            throw error;
          }
          if (await client.refresh(config)) this.emit('client-refreshed', { userId, user: entry.userName });
        } while (entry.refreshAgain);
      } catch (error) {
        this.#logger.warn('refreshing a user client failed', { user: entry.userName, error: String(error) });
      } finally {
        entry.refreshing = undefined;
      }
    })();
    return entry.refreshing;
  }

  /** Closes every client and stops following the registry. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      clearInterval(this.#timer);
      this.#registry.off('change', this.#onChange);
      try {
        await Promise.all([...this.#entries.values()].map((entry) => this.#evict(entry, 'closed')));
        await Promise.all([...this.#closingClients]);
        await this.#audit?.close();
      } finally {
        this.removeAllListeners();
      }
    })();
    return this.#closing;
  }

  #oauthOptions(user: RegistryUser): OAuthClientOptions {
    return {
      store: new RegistryOAuthTokenStore(this.#registry.userSecrets, { id: user.id }),
      loginCommand: (server) => `switchboard login ${server} --user ${user.name}`,
      ...this.#options.clientOptions?.oauth,
    };
  }

  #create(user: RegistryUser): PoolEntry {
    let settle: { resolve: (client: UserClient) => void; reject: (error: unknown) => void } | undefined;
    const creating = new Promise<UserClient>((resolve, reject) => (settle = { resolve, reject }));
    const entry: PoolEntry = { userId: user.id, userName: user.name, creating, client: undefined, leases: 0, lastUsed: Date.now(), refreshing: undefined, refreshAgain: false };
    void (async () => {
      const config = await this.#configFor(user.id);
      const connectionOptions = this.#options.connectionOptionsFor?.(user);
      const clientOptions = {
        ...(this.#options.catalogCache === false ? {} : { catalogCache: this.#registry.catalog }),
        ...this.#options.clientOptions,
        ...(this.#options.oauth === false ? {} : { oauth: this.#oauthOptions(user) }),
      };
      const client = await UserClient.create(config, {
        ...(connectionOptions === undefined ? {} : { connectionOptions }),
        ...(clientOptions === undefined ? {} : { clientOptions }),
        logger: this.#logger,
        ...(this.#audit === undefined ? {} : { audit: this.#audit }),
        ...(this.#options.auditArguments === undefined ? {} : { auditArguments: this.#options.auditArguments }),
        ...(this.#options.callQueueTimeoutMs === undefined ? {} : { callQueueTimeoutMs: this.#options.callQueueTimeoutMs }),
        ...(this.#options.drainTimeoutMs === undefined ? {} : { drainTimeoutMs: this.#options.drainTimeoutMs }),
        ...(this.#options.resolveHost === undefined ? {} : { resolveHost: this.#options.resolveHost }),
        ...(this.#options.callGate === undefined ? {} : { callGate: this.#options.callGate }),
      });
      entry.client = client;
      if (this.#entries.get(user.id) !== entry) {
        // Evicted (or the pool closed) while connecting.
        await client.close();
        throw new SwitchboardError(ErrorCode.ServerDisconnected, `the client of user "${user.name}" was closed while starting`, { details: { retryable: true } });
      }
      this.emit('client-created', { userId: user.id, user: user.name });
      for (const warning of config.warnings) this.#logger.warn(warning, { user: user.name });
      return client;
    })().then(
      (client) => settle?.resolve(client),
      (error: unknown) => settle?.reject(error),
    );
    entry.creating.catch(() => {
      if (this.#entries.get(user.id) === entry) this.#entries.delete(user.id);
    });
    this.#entries.set(user.id, entry);
    this.#newest = entry;
    this.#enforceCap();
    return entry;
  }

  /** The user's registry servers, then the shared config's servers they do not hide. */
  async #configFor(userId: string): Promise<UserServerConfig> {
    const config = await this.#registry.configForUser({ id: userId });
    const shared = this.#options.sharedConfig;
    if (shared === undefined) return config;
    const names = new Set(config.config.servers.map((spec) => spec.name));
    const warnings = [...config.warnings];
    const servers = [...config.config.servers];
    for (const spec of shared.servers) {
      if (names.has(spec.name)) {
        warnings.push(`server "${spec.name}" of the shared config is hidden by the registry's server of that name`);
        continue;
      }
      servers.push(spec);
    }
    return { ...config, config: { ...config.config, servers, naming: shared.naming ?? config.config.naming }, warnings };
  }

  #enforceCap(): void {
    const max = this.#options.maxClients ?? DEFAULT_MAX_CLIENTS;
    let excess = this.#entries.size - max;
    if (excess <= 0) return;
    for (const entry of this.#entries.values()) {
      if (excess <= 0) break;
      if (!isIdle(entry)) continue;
      excess--;
      void this.#evict(entry, 'lru');
    }
    if (excess > 0) this.#logger.warn('client pool is over its cap: every other client is in use', { size: this.#entries.size, max });
  }

  #evict(entry: PoolEntry, reason: EvictionReason): Promise<void> {
    if (this.#entries.get(entry.userId) === entry) this.#entries.delete(entry.userId);
    const closing = (async () => {
      const client = await entry.creating.catch(() => undefined);
      await client?.close();
      this.emit('client-evicted', { userId: entry.userId, user: entry.userName, reason });
    })().catch((error: unknown) => this.#logger.warn('closing a user client failed', { user: entry.userName, error: String(error) }));
    this.#closingClients.add(closing);
    void closing.finally(() => this.#closingClients.delete(closing));
    return closing;
  }

  #applyChange(change: RegistryChange): void {
    if (change.kind === 'user' && change.action === 'removed' && typeof change.userId === 'string') {
      const entry = this.#entries.get(change.userId);
      if (entry !== undefined) void this.#evict(entry, 'user-removed');
      return;
    }
    if (typeof change.userId === 'string') {
      void this.refresh(change.userId);
      return;
    }
    // Shared servers, templates, the global policy, or an unknown change: every live client checks.
    for (const userId of this.#entries.keys()) void this.refresh(userId);
  }
}

function isRegistryUser(value: UserRef | RegistryUser): value is RegistryUser {
  return typeof value === 'object' && 'name' in value && 'isAdmin' in value;
}

function isIdle(entry: PoolEntry): boolean {
  return entry.leases === 0 && entry.refreshing === undefined && (entry.client === undefined ? false : entry.client.activeCalls === 0 && entry.client.waitingCalls === 0);
}

/** A lease of `entry`'s client; releasing it twice counts once. */
function leaseOf(entry: PoolEntry, client: UserClient): ClientLease {
  let released = false;
  return {
    client,
    release: () => {
      if (released) return;
      released = true;
      entry.leases--;
      entry.lastUsed = Date.now();
    },
  };
}
