/**
 * @module gateway/gateway
 * The gateway's state, independent of HTTP: the registry, the pool of per-user clients (with the
 * config file's servers shared by everyone), the `/mcp` endpoint, the calls in flight, the metrics,
 * and the shutdown sequence. {@link createGatewayApp} puts HTTP routes on it; {@link startGateway}
 * listens; {@link serveGatewayStdio} serves one user over stdio.
 */

import type { ServerSpec } from '../config/server-spec.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { redactingLogger } from '../util/redacting-logger.js';
import { noopLogger, type Logger } from '../logger.js';
import { ClientPool, ClusterCallLimiter, type ClientLease } from '../pool/index.js';
import { OAuthLogins } from './oauth-logins.js';
import type { RegistryChange, RegistryUser, ServerRegistry } from '../registry/index.js';
import { GatewayAccess } from './access/gateway-access.js';
import { authenticate, authenticateCaller, bearerTokenOf, type Caller } from './auth.js';
import { FULL_SCOPE, scopesAllow } from './oauth-server/mcp-scope.js';
import type { ProtectedResource } from './oauth-server/protected-resource.js';
import { CallTracker } from './call-tracker.js';
import { ClusterEventRelay } from './cluster-event-relay.js';
import { ClusterStats } from './cluster-stats.js';
import { ReadCache } from '../client/routing/read-cache.js';
import { forwardingOptionsFor } from './forward-server-requests.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_EVENT_STREAMS,
  DEFAULT_MAX_EVENT_STREAMS_PER_USER,
  DEFAULT_MAX_LISTEN_STREAMS,
  DEFAULT_MAX_LISTEN_STREAMS_PER_USER,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_USER,
  DEFAULT_SESSION_IDLE_TTL_MS,
  DEFAULT_SHUTDOWN_DEADLINE_MS,
} from './gateway-defaults.js';
import { GatewayMetrics } from './gateway-metrics.js';
import { createHostCheck, type HostCheck } from './host-check.js';
import { LimitRefusals } from './limit-refusals.js';
import { McpEndpoint, type McpEndpointOptions } from './mcp-endpoint.js';
import type { GatewayOptions } from './gateway-options.js';
import { HOP_KEY_PURPOSE, ReplicaHop } from './replica-hop.js';
import { cancellationOf } from './mcp-hop.js';
import { REPLICA_EXPIRY_MS, ReplicaHeartbeat } from './replica-heartbeat.js';
import { SessionIds } from './session-ids.js';
import { SessionStates } from './session-states.js';
import { SessionSeal } from './session-seal.js';
import { TokenCache } from './token-cache.js';
import { UserSlots } from './user-slots.js';

export type { GatewayOptions } from './gateway-options.js';

/** The gateway. */
export class Gateway {
  readonly registry: ServerRegistry;
  readonly pool: ClientPool;
  readonly logger: Logger;
  readonly calls: CallTracker;
  readonly mcp: McpEndpoint;
  readonly metrics: GatewayMetrics;
  readonly hostCheck: HostCheck;
  readonly maxBodyBytes: number;
  /** Places for `/api/events` streams (per user and in total). */
  readonly eventStreams: UserSlots;
  /** Refusals by the caps on sessions, streams and connections (`switchboard_limit_refusals_total`). */
  readonly refusals: LimitRefusals;
  /** OAuth logins started from the dashboard, waiting for their browser. */
  readonly logins: OAuthLogins;
  /** Tool rules, named endpoints (`/mcp/e/NAME`), rate limits and approvals (issue 21). */
  readonly access: GatewayAccess;
  /** The config file's servers (shared by every user). */
  readonly sharedServers: readonly ServerSpec[];
  /** This replica's heartbeat in the cluster of gateways on the same database (issue 20); started once it listens. */
  readonly replica: ReplicaHeartbeat;
  /** Other replicas' events for this replica's `/api/events` streams, and this one's for theirs (issue 20). */
  readonly relay: ClusterEventRelay;
  /** The per-user statistics of the other replicas, for `/api/stats` (issue 20). */
  readonly clusterStats: ClusterStats;
  /** The authenticated hop to the replica holding a call's or login's state (issue 20). */
  readonly hop: ReplicaHop;
  /** The fast path's cancellation of its own calls, for cancellations heard from other replicas. */
  readonly #fastCancels = new Set<(sessionId: string, requestId: string | number, reason: string | undefined) => boolean>();
  readonly #onSessionMessage: (notice: { digest: string; userId: string; message: Record<string, unknown> }) => void;
  /** Users' concurrent-call limits across the cluster (leases on PostgreSQL while more than one replica is live). */
  readonly callLeases: ClusterCallLimiter;
  readonly #streams = new Set<() => void>();
  readonly #tokens: TokenCache;
  readonly #onRegistryChange: (change: RegistryChange) => void;
  readonly #onSessionEnded: (ended: { digest: string }) => void;
  #shuttingDown = false;
  #closing: Promise<void> | undefined;
  #oauth: ProtectedResource | undefined;

  private constructor(options: GatewayOptions, parts: { pool: ClientPool; calls: CallTracker; mcp: McpEndpoint; metrics: GatewayMetrics; logger: Logger; maxBodyBytes: number; eventStreams: UserSlots; refusals: LimitRefusals; access: GatewayAccess; replica: ReplicaHeartbeat; hop: ReplicaHop; callLeases: ClusterCallLimiter }) {
    this.registry = options.registry;
    this.callLeases = parts.callLeases;
    this.access = parts.access;
    this.#tokens = new TokenCache(options.tokenCacheTtlMs);
    // Users removed or changed, tokens revoked (here or in another process): verified tokens are re-checked.
    this.#onRegistryChange = (change) => {
      if (change.kind === 'user' || change.kind === 'unknown') this.#tokens.clear();
      // The change feed reconnected: a session ended elsewhere meanwhile ends here too.
      if (change.kind === 'unknown') for (const endpoint of [this.mcp, ...this.access.running]) void endpoint.recheckEndedSessions().catch((error: unknown) => this.logger.warn('cannot check for ended sessions', { error: String(error) }));
    };
    this.registry.on('change', this.#onRegistryChange);
    // A client ended its session through another replica (or another endpoint object here).
    this.#onSessionEnded = ({ digest }) => {
      for (const endpoint of [this.mcp, ...this.access.running]) endpoint.sessionEnded(digest);
    };
    this.registry.on('session-ended', this.#onSessionEnded);
    this.sharedServers = options.sharedConfig?.servers ?? [];
    this.logger = parts.logger;
    this.replica = parts.replica;
    this.hop = parts.hop;
    this.relay = new ClusterEventRelay(options.registry, this.replica.id, parts.logger);
    this.clusterStats = new ClusterStats(options.registry, this.replica.id, parts.logger);
    // Every series says which replica it is from (PostgreSQL: a cluster; one SQLite replica stays as it was).
    if (options.registry.backend === 'postgres') parts.metrics.registry.setDefaultLabels({ replica: this.replica.id });
    this.logins = new OAuthLogins(parts.replica.id);
    // A session's client cancelled a request, or answered the gateway's, through another replica: the call may be running here.
    this.#onSessionMessage = (notice) => {
      const cancel = cancellationOf(notice.message);
      const fastCancel = (sessionId: string): boolean => cancel !== undefined && [...this.#fastCancels].some((abort) => abort(sessionId, cancel.requestId, cancel.reason));
      for (const endpoint of [this.mcp, ...this.access.running]) void endpoint.deliverRemote(notice, fastCancel).catch((error: unknown) => this.logger.warn('cannot deliver a session message for another replica', { error: String(error) }));
    };
    this.registry.on('session-message', this.#onSessionMessage);
    this.pool = parts.pool;
    this.calls = parts.calls;
    this.mcp = parts.mcp;
    this.metrics = parts.metrics;
    this.maxBodyBytes = parts.maxBodyBytes;
    this.eventStreams = parts.eventStreams;
    this.refusals = parts.refusals;
    this.hostCheck = createHostCheck({ ...(options.allowedHosts === undefined ? {} : { allowedHosts: options.allowedHosts }), ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }) });
    this.pool.on('client-evicted', ({ userId, user, reason }) => {
      this.logger.info('user client closed', { user, reason });
      this.mcp.clientEvicted(userId, reason);
      this.relay.untrack(userId);
      this.clusterStats.untrack(userId);
    });
    this.pool.on('client-created', ({ user }) => this.logger.info('user client started', { user }));
    this.pool.on('client-refreshed', ({ user }) => this.logger.info('user client reloaded after a registry change', { user }));
  }

  /** Builds the gateway over an open registry. Nothing listens yet. */
  static async create(options: GatewayOptions): Promise<Gateway> {
    // No log line of the gateway carries a server URL's credentials, whoever logs it.
    const logger = redactingLogger(options.logger ?? noopLogger);
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!(maxBodyBytes > 0)) throw new SwitchboardError(ErrorCode.InvalidArgument, `maxBodyBytes must be positive, got ${String(options.maxBodyBytes)}`);
    const refusals = new LimitRefusals();
    const { sessionSlots, listenSlots, eventStreams } = slotsOf(options, refusals);
    const calls = new CallTracker();
    let gateway: Gateway | undefined;
    // The heartbeat says who else is live: a replica alone takes no leases (no database work per call).
    const callLeases = new ClusterCallLimiter(options.registry, { replicaId: () => (gateway?.replica.started === true ? gateway.replica.id : undefined), liveReplicas: () => gateway?.replica.liveReplicas ?? 1, replicaExpiryMs: REPLICA_EXPIRY_MS }, { logger });
    const pool = new ClientPool(options.registry, {
      ...options.pool,
      callGate: callLeases,
      // Reads a server marked `public` are served to every user of an identical server entry; `private` ones never leave their user's client.
      clientOptions: { sharedReadCache: new ReadCache(), ...options.pool?.clientOptions },
      logger,
      ...(options.sharedConfig === undefined ? {} : { sharedConfig: options.sharedConfig }),
      connectionOptionsFor: (user) => forwardingOptionsFor(calls, user, logger),
    });
    const replica = new ReplicaHeartbeat(options.registry.cluster, logger);
    const hop = new ReplicaHop(replica.id, options.registry.derivedKey(HOP_KEY_PURPOSE), options.registry.cluster);
    const access = new GatewayAccess(options.registry, logger, options.toolSearch === undefined ? options.access : { ...options.access, toolSearchDefault: options.toolSearch });
    const mcpOptions: McpEndpointOptions = {
      lease: (user) => {
        if (gateway === undefined) throw new SwitchboardError(ErrorCode.Unavailable, 'the gateway is starting');
        return gateway.lease(user);
      },
      tracker: calls,
      logger,
      maxBodyBytes,
      sessionIdleTtlMs: options.sessionIdleTtlMs ?? DEFAULT_SESSION_IDLE_TTL_MS,
      sessionSlots,
      listenSlots,
      onClient: (client, user) => gateway?.metrics.attach(client, user.name),
      hop,
      publishSessionMessage: (notice) => options.registry.publishSessionMessage(notice),
    };
    // Derived once: sealing an id is one AES-GCM pass, never a KDF per request.
    const sessionIds = new SessionIds(new SessionSeal(options.registry.derivedKey('mcp session id')), options.registry.cluster);
    const sessionStates = new SessionStates(options.registry, logger);
    const mcp = new McpEndpoint({ ...mcpOptions, sessionIds, sessionStates, toolGate: (user) => access.gateFor(user) });
    access.serveNamedWith((name) => new McpEndpoint({ ...mcpOptions, sessionIds: sessionIds.forEndpoint(name), sessionStates, toolGate: (user) => access.gateFor(user, name) }));
    access.onListChanged(() => mcp.toolsChanged());
    let metrics: GatewayMetrics;
    try {
      await access.start();
      metrics = await GatewayMetrics.create({ sessions: () => mcp.sessionCount, clients: () => pool.size, callsInFlight: () => calls.size, audit: () => pool.auditStats(), limitRefusals: () => refusals.snapshot() }, logger);
    } catch (error) {
      callLeases.close();
      await Promise.all([mcp.close(), pool.close(), access.close()]);
      throw error;
    }
    gateway = new Gateway(options, { pool, calls, mcp, metrics, logger, maxBodyBytes, eventStreams, refusals, access, replica, hop, callLeases });
    return gateway;
  }

  /** True once {@link close} has begun: new work is refused (503). */
  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** The user of a request (401 without a valid token). */
  authenticate(request: Request, options: { allowQueryToken?: boolean } = {}): Promise<RegistryUser> {
    return authenticate(this.registry, request, { ...options, cache: this.#tokens, ...(this.#oauth === undefined ? {} : { oauth: this.#oauth }) });
  }

  /** As {@link authenticate}, with the scopes of an OAuth access token. */
  authenticateCaller(request: Request, options: { allowQueryToken?: boolean } = {}): Promise<Caller> {
    return authenticateCaller(this.registry, request, { ...options, cache: this.#tokens, ...(this.#oauth === undefined ? {} : { oauth: this.#oauth }) });
  }

  /** Who issues the gateway's OAuth access tokens (its own authorization server, or an external one), once {@link useOAuth} set it. */
  get oauth(): ProtectedResource | undefined {
    return this.#oauth;
  }

  /** Accepts the access tokens of `server` from now on, beside the static tokens; closed with the gateway. */
  useOAuth(server: ProtectedResource): void {
    this.#oauth = server;
  }

  /** The user of a bearer token verified less than the token cache's TTL ago (the fast path's check, for a request on `connection`), else undefined. */
  cachedUser(token: string, connection: object): RegistryUser | undefined {
    const hit = this.#tokens.lookupOn(connection, token);
    // An OAuth token limited to listing goes the general way, which enforces its scope; a DPoP-bound one, which checks its proof.
    return hit === undefined || hit.boundKey !== undefined || !scopesAllow(hit.scopes, FULL_SCOPE) ? undefined : hit.user;
  }

  /** A lease on `user`'s client (created on first use: its servers connect within their deadlines). */
  async lease(user: RegistryUser): Promise<ClientLease> {
    if (this.#shuttingDown) throw new SwitchboardError(ErrorCode.Unavailable, 'the gateway is shutting down');
    return this.#followed(user, await this.pool.acquire(user));
  }

  /** {@link lease} when the user's client is up already: at once, or undefined (then `lease`). */
  leaseNow(user: RegistryUser): ClientLease | undefined {
    const lease = this.#shuttingDown ? undefined : this.pool.leaseNow(user);
    return lease === undefined ? undefined : this.#followed(user, lease);
  }

  /** A leased client's metrics, events and statistics are followed by the gateway (once per client). */
  #followed(user: RegistryUser, lease: ClientLease): ClientLease {
    this.metrics.attach(lease.client, user.name);
    this.relay.track(user.id, lease.client);
    this.clusterStats.track(user.id, lease.client);
    return lease;
  }

  /**
   * Starts `user`'s servers now rather than at their first request, and logs how each one came up
   * (`npm start` shows at once whether the demo servers are ready). Failures are logged, not thrown.
   */
  async warm(user: RegistryUser): Promise<void> {
    let lease: ClientLease | undefined;
    try {
      lease = await this.lease(user);
      for (const status of lease.client.status()) {
        const fields = { user: user.name, server: status.name, state: status.state, tools: status.toolCount, ...(status.transport === undefined ? {} : { transport: status.transport }), ...(status.protocolVersion === undefined ? {} : { protocolVersion: status.protocolVersion }) };
        if (status.state === 'ready') this.logger.info('server ready', fields);
        else this.logger.warn('server not ready', { ...fields, ...(status.error === undefined ? {} : { error: status.error.message.split('\n')[0] ?? '', code: status.error.code }) });
      }
    } catch (error) {
      this.logger.warn('starting the servers failed', { user: user.name, error: error instanceof Error ? error.message : String(error) });
    } finally {
      lease?.release();
    }
  }

  /** Lets the fast path cancel its calls for cancellations heard from other replicas (`cancel` is true when it had the call). */
  onRemoteCancel(cancel: (sessionId: string, requestId: string | number, reason: string | undefined) => boolean): void {
    this.#fastCancels.add(cancel);
  }

  /** Registers a long-lived stream (`/api/events`) to end at shutdown; returns its unregister function. */
  trackStream(close: () => void): () => void {
    this.#streams.add(close);
    return () => this.#streams.delete(close);
  }

  /**
   * Shuts down gracefully: refuses new work, ends event streams, lets running calls finish for up to
   * `deadlineMs` (or until `hurry` aborts) and then cancels them (upstreams get `notifications/cancelled`), ends every MCP
   * session, and closes the pool (every server process ends). Idempotent. The registry stays open
   * (whoever opened it closes it).
   */
  close(options: { deadlineMs?: number; hurry?: AbortSignal } = {}): Promise<void> {
    this.#closing ??= (async () => {
      this.#shuttingDown = true;
      for (const close of [...this.#streams]) close();
      const deadlineMs = options.deadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS;
      if (this.calls.size > 0) {
        this.logger.info('waiting for running calls before shutting down', { calls: this.calls.size, deadlineMs });
        if (!(await this.calls.whenIdle(deadlineMs, options.hurry))) {
          this.logger.warn('cancelling calls still running at the shutdown deadline', { calls: this.calls.size });
          this.calls.abortAll(new SwitchboardError(ErrorCode.RequestCancelled, 'the gateway is shutting down'));
          await this.calls.whenIdle(2_000);
        }
      }
      // The last answers are still being written to their clients' streams.
      await this.mcp.whenQuiet(2_000);
      await Promise.all(this.access.running.map((endpoint) => endpoint.whenQuiet(2_000)));
      await this.mcp.close();
      await this.access.close();
      await this.logins.close();
      await this.#oauth?.close();
      await this.relay.close();
      await this.clusterStats.close();
      await this.pool.close();
      this.callLeases.close();
      await this.replica.close();
      this.registry.off('change', this.#onRegistryChange);
      this.registry.off('session-ended', this.#onSessionEnded);
      this.registry.off('session-message', this.#onSessionMessage);
      this.#fastCancels.clear();
      this.#tokens.clear();
    })();
    return this.#closing;
  }
}

/** A cap on sessions or streams: its two options, their defaults, and what a refusal tells the client. */
interface SlotLimit {
  perUserOption: 'maxSessionsPerUser' | 'maxListenStreamsPerUser' | 'maxEventStreamsPerUser';
  totalOption: 'maxSessions' | 'maxListenStreams' | 'maxEventStreams';
  perUserDefault: number;
  totalDefault: number;
  noun: string;
  hint: string;
}

const SLOT_LIMITS = {
  sessionSlots: {
    perUserOption: 'maxSessionsPerUser',
    totalOption: 'maxSessions',
    perUserDefault: DEFAULT_MAX_SESSIONS_PER_USER,
    totalDefault: DEFAULT_MAX_SESSIONS,
    noun: 'sessions',
    hint: 'end sessions you no longer use (HTTP DELETE /mcp with their Mcp-Session-Id, or close the client), or wait for idle ones to expire',
  },
  listenSlots: {
    perUserOption: 'maxListenStreamsPerUser',
    totalOption: 'maxListenStreams',
    perUserDefault: DEFAULT_MAX_LISTEN_STREAMS_PER_USER,
    totalDefault: DEFAULT_MAX_LISTEN_STREAMS,
    noun: 'subscriptions/listen streams',
    hint: 'close listen streams you no longer use (end the subscriptions/listen request, or close the client)',
  },
  eventStreams: {
    perUserOption: 'maxEventStreamsPerUser',
    totalOption: 'maxEventStreams',
    perUserDefault: DEFAULT_MAX_EVENT_STREAMS_PER_USER,
    totalDefault: DEFAULT_MAX_EVENT_STREAMS,
    noun: 'event streams',
    hint: 'close a dashboard tab or another /api/events stream you no longer watch',
  },
} as const satisfies Record<string, SlotLimit>;

/** The caps on sessions and streams (checked before anything else is built); each refusal is counted. */
function slotsOf(options: GatewayOptions, refusals: LimitRefusals): Record<keyof typeof SLOT_LIMITS, UserSlots> {
  const onRefused = (limit: string): void => refusals.count(limit);
  const slots = (limit: SlotLimit): UserSlots =>
    new UserSlots({
      perUser: options[limit.perUserOption] ?? limit.perUserDefault,
      total: options[limit.totalOption] ?? limit.totalDefault,
      noun: limit.noun,
      perUserOption: limit.perUserOption,
      totalOption: limit.totalOption,
      hint: limit.hint,
      onRefused,
    });
  return { sessionSlots: slots(SLOT_LIMITS.sessionSlots), listenSlots: slots(SLOT_LIMITS.listenSlots), eventStreams: slots(SLOT_LIMITS.eventStreams) };
}
