/**
 * @module gateway/user-endpoint
 * Everything the MCP side of the gateway holds for one user: the 2026-07-28 handler (one per user,
 * so a change to this user's tools reaches only this user's `subscriptions/listen` streams), the
 * user's long-lived downstream sessions (2025-era HTTP sessions, stdio), and the wiring from the
 * user's {@link UserClient} events to what those clients are told:
 * - `tools-changed` / `prompts-changed` / `resources-changed` → `notifications/…/list_changed`
 *   (upstream list changes, servers going up or down, registry edits);
 * - an upstream `notifications/resources/updated` → the sessions subscribed to that resource;
 * - an upstream `notifications/message` → on the stream of the call it belongs to, else to the
 *   sessions that set a log level.
 */

import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { MultiServerClientEvents } from '../client/multi-server-client.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RegistryUser } from '../registry/index.js';
import type { UserClient, UserClientEvents } from '../pool/index.js';
import type { ToolGate } from './access/tool-gate.js';
import { createAggregatedServer, type AggregatedServerHost } from './aggregated-server.js';
import { CallConversations } from './call-conversations.js';
import { GatewayTasks } from './gateway-tasks.js';
import type { CallTracker } from './call-tracker.js';
import { isLogLevel, passesLevel, type DownstreamSession, type UpstreamResource } from './downstream-session.js';

/** Options of a {@link UserEndpoint}. */
export interface UserEndpointOptions {
  tracker: CallTracker;
  logger: Logger;
  maxBodyBytes: number;
  /** Called when the endpoint starts using a client (the gateway attaches its metrics). */
  onClient?: (client: UserClient) => void;
  /** Called when a tool call starts, with the HTTP request it came on (for the shutdown). */
  onCall?: (request: Request | undefined) => void;
  /** The access check of this user on this endpoint. */
  toolGate?: ToolGate;
  /** This replica's id, put in front of `input_required` states (a retry landing elsewhere is forwarded here). */
  replicaId?: string;
}

/** The MCP side of one user. */
export class UserEndpoint implements AggregatedServerHost {
  readonly user: RegistryUser;
  readonly tracker: CallTracker;
  readonly logger: Logger;
  /** Long-lived downstream connections of this user. */
  readonly sessions = new Set<DownstreamSession>();
  readonly conversations: CallConversations;
  readonly toolGate: ToolGate | undefined;
  /** Tasks this user started through the gateway, under the gateway's ids. */
  readonly tasks: GatewayTasks;
  readonly #options: UserEndpointOptions;
  /** Resources 2026-07-28 listen streams asked for: upstream (server, URI) → URI as the client knows it → streams. */
  readonly #listened = new Map<string, Map<string, number>>();
  #client: UserClient | undefined;
  #unbind: (() => void) | undefined;
  #modern: McpHttpHandler | undefined;

  constructor(user: RegistryUser, options: UserEndpointOptions) {
    this.user = user;
    this.tracker = options.tracker;
    this.logger = options.logger.child({ user: user.name });
    this.tasks = new GatewayTasks(user.id);
    this.conversations = new CallConversations(undefined, options.replicaId);
    this.#options = options;
    this.toolGate = options.toolGate;
  }

  /** Tells this user's connected clients that their tool list changed (the access rules did). */
  toolsChanged(): void {
    this.#listChanged('tools');
  }

  /** A tool call starts on `request` (the HTTP request it came on, when there is one). */
  callStarted(request: Request | undefined): void {
    this.#options.onCall?.(request);
  }

  /** The user's client (the one of the request being served). */
  client(): UserClient {
    if (this.#client === undefined || this.#client.closed) {
      throw new SwitchboardError(ErrorCode.Unavailable, `the tools of user "${this.user.name}" are not available right now`, { details: { retryable: true } });
    }
    return this.#client;
  }

  /** Follows `client` (the pool's client of this user, which replaces the previous one after an eviction). */
  bind(client: UserClient): void {
    if (this.#client === client) return;
    this.#unbind?.();
    this.#client = client;
    this.#options.onClient?.(client);
    const onTools = (event: UserClientEvents['tools-changed']): void => {
      if (event.reason === 'reload') this.#options.onClient?.(client);
      this.#listChanged('tools');
    };
    const onPrompts = (): void => this.#listChanged('prompts');
    const onResources = (event: UserClientEvents['resources-changed']): void => {
      if (event.uri === undefined) this.#listChanged('resources');
      else this.#resourceUpdated(event.server, event.uri);
    };
    const onLog = (event: UserClientEvents['server-log']): void => {
      if (event.source === 'mcp') this.#routeLog(event);
    };
    client.on('tools-changed', onTools);
    client.on('prompts-changed', onPrompts);
    client.on('resources-changed', onResources);
    client.on('server-log', onLog);
    this.#unbind = () => {
      client.off('tools-changed', onTools);
      client.off('prompts-changed', onPrompts);
      client.off('resources-changed', onResources);
      client.off('server-log', onLog);
    };
  }

  /** Stops following the client (it was evicted from the pool). */
  unbind(): void {
    this.#unbind?.();
    this.#unbind = undefined;
    this.#client = undefined;
  }

  /** The 2026-07-28 handler of this user (created on first use). */
  modern(): McpHttpHandler {
    this.#modern ??= createMcpHandler(() => createAggregatedServer({ host: this, era: 'modern' }), {
      legacy: 'reject',
      maxRequestBodySize: this.#options.maxBodyBytes,
      // The gateway's own caps on listen streams (maxListenStreamsPerUser, maxListenStreams) apply first.
      maxSubscriptions: Number.MAX_SAFE_INTEGER,
      onerror: (error) => this.logger.debug('2026-07-28 request refused or failed', { error: error.message }),
    });
    return this.#modern;
  }

  /** True when nothing of this user is connected (no sessions, no 2026 handler). */
  get idle(): boolean {
    return this.sessions.size === 0 && this.#modern === undefined;
  }

  /** Subscribes the user's client to an upstream resource (the client counts subscribers and subscribes again after restarts). */
  async subscribe(resource: UpstreamResource, signal: AbortSignal): Promise<void> {
    await this.client().subscribeResource(resource.uri, { server: resource.server, signal });
  }

  async unsubscribe(resource: UpstreamResource): Promise<void> {
    // Best effort: the client may be gone, and nobody waits for this answer.
    await this.#client?.unsubscribeResource(resource.uri, { server: resource.server }).catch((error: unknown) => this.logger.debug('unsubscribing upstream failed', { server: resource.server, error: String(error) }));
  }

  /**
   * A 2026-07-28 `subscriptions/listen` stream wants updates of `uris` (as the client knows them): the
   * user's client subscribes upstream (a URI no server offers is only logged). The returned function
   * ends that, once the stream has ended.
   */
  async listen(uris: readonly string[]): Promise<() => void> {
    const client = this.client();
    const held: Array<{ exposed: string; upstream: UpstreamResource }> = [];
    await Promise.all(
      uris.map(async (exposed) => {
        try {
          const upstream = await client.subscribeResource(exposed);
          const streams = this.#listened.get(subscriptionKey(upstream)) ?? new Map<string, number>();
          streams.set(exposed, (streams.get(exposed) ?? 0) + 1);
          this.#listened.set(subscriptionKey(upstream), streams);
          held.push({ exposed, upstream });
        } catch (error) {
          this.logger.debug('a listened resource could not be subscribed upstream', { uri: exposed, error: String(error) });
        }
      }),
    );
    return () => {
      for (const { exposed, upstream } of held.splice(0)) {
        const streams = this.#listened.get(subscriptionKey(upstream));
        const left = (streams?.get(exposed) ?? 1) - 1;
        if (left > 0) streams?.set(exposed, left);
        else streams?.delete(exposed);
        if (streams?.size === 0) this.#listened.delete(subscriptionKey(upstream));
        void client.unsubscribeResource(upstream.uri, { server: upstream.server }).catch((error: unknown) => this.logger.debug('unsubscribing upstream failed', { server: upstream.server, error: String(error) }));
      }
    };
  }

  /** Adds a long-lived session. */
  attach(session: DownstreamSession): void {
    this.sessions.add(session);
  }

  /** Removes a session and drops its subscriptions. */
  async detach(session: DownstreamSession): Promise<void> {
    if (!this.sessions.delete(session)) return;
    const subscriptions = [...session.subscriptions.values()];
    session.subscriptions.clear();
    await Promise.all(subscriptions.map((resource) => this.unsubscribe(resource)));
  }

  /** Closes the 2026 handler (in-flight 2026 exchanges and `subscriptions/listen` streams end). */
  async close(): Promise<void> {
    this.unbind();
    this.conversations.close();
    const modern = this.#modern;
    this.#modern = undefined;
    await modern?.close().catch((error: unknown) => this.logger.debug('closing the 2026 handler failed', { error: String(error) }));
  }

  #listChanged(kind: 'tools' | 'prompts' | 'resources'): void {
    this.logger.debug('telling connected clients their list changed', { kind, sessions: this.sessions.size });
    const notify = this.#modern?.notify;
    if (kind === 'tools') notify?.toolsChanged();
    else if (kind === 'prompts') notify?.promptsChanged();
    else notify?.resourcesChanged();
    for (const session of this.sessions) {
      const server = session.server;
      if (server === undefined || server.transport === undefined) continue;
      const sent = kind === 'tools' ? server.sendToolListChanged() : kind === 'prompts' ? server.sendPromptListChanged() : server.sendResourceListChanged();
      sent.catch((error: unknown) => this.logger.debug('list_changed not delivered', { session: session.id, error: String(error) }));
    }
  }

  #resourceUpdated(server: string, uri: string): void {
    for (const exposed of this.#listened.get(subscriptionKey({ server, uri }))?.keys() ?? []) this.#modern?.notify.resourceUpdated(exposed);
    for (const session of this.sessions) {
      for (const [exposed, upstream] of session.subscriptions) {
        if (upstream.server !== server || upstream.uri !== uri) continue;
        session.server?.sendResourceUpdated({ uri: exposed }).catch((error: unknown) => this.logger.debug('resource update not delivered', { session: session.id, error: String(error) }));
      }
    }
  }

  #routeLog(event: MultiServerClientEvents['server-log']): void {
    if (!isLogLevel(event.level)) return;
    const logger = typeof event.logger === 'string' && event.logger !== '' ? `${event.server}/${event.logger}` : event.server;
    const delivered = new Set<object>();
    // During a call, on the call's own stream: a 2025 client without a GET stream still sees it.
    for (const call of this.tracker.callsTo(this.user.id, event.server).reverse()) {
      if (delivered.has(call.downstream.key)) continue;
      delivered.add(call.downstream.key);
      call.downstream.log?.(event.level, event.data, logger);
    }
    for (const session of this.sessions) {
      const threshold = session.logLevel;
      if (delivered.has(session) || threshold === undefined || !passesLevel(event.level, threshold) || session.server?.transport === undefined) continue;
      session.server.sendLoggingMessage({ level: event.level, data: event.data, logger }).catch(() => {});
    }
  }
}

function subscriptionKey(resource: UpstreamResource): string {
  return `${resource.server}\n${resource.uri}`;
}
