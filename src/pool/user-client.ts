/**
 * @module pool/user-client
 * One user's tools: a {@link MultiServerClient} over that user's servers and the shared ones, with
 * the user's call limit and an audit entry per call. When the registry changes, the pool hands it a
 * new configuration, applied in place ({@link MultiServerClient.reconfigure}): only added, changed
 * and removed servers start or stop; the others keep their processes, sessions and stats. When the
 * user's network policy changed, a new client is connected and swapped in instead, and the old one
 * closes once its running calls have ended. Either way `tools-changed` (reason `reload`) is emitted.
 */

import { type CatalogPrompt, type CatalogResource, type CatalogResourceTemplate, type CatalogTool, DEFAULT_DRAIN_TIMEOUT_MS, type MultiServerClient, type ServerStatus } from '../client/multi-server-client.js';
import { carryResourceSubscriptions } from '../client/routing/carry-resource-subscriptions.js';
import type { ToolTasks } from '../client/tasks/tool-tasks.js';
import type { ToolTask } from '../client/tasks/task-types.js';
import type { SubscribedResource } from '../client/routing/resource-subscriptions.js';
import type { CallOptions, ServerConnection } from '../connection/server-connection.js';
import type { GetPromptResult, ReadResourceResult } from '../connection/mcp-types.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import type { ClientStats } from '../metrics/stats-collector.js';
import type { RegistryUser, UserServerConfig } from '../registry/registry-types.js';
import type { ToolResult } from '../result/tool-result.js';
import { TypedEmitter, type Listener } from '../util/typed-emitter.js';
import { TenantDisclosure } from './tenant-disclosure.js';
import { CallLimiter, DEFAULT_CALL_QUEUE_TIMEOUT_MS } from './call-limiter.js';
import { auditCall } from './audit-call.js';
import { countedCall } from './counted-call.js';
import { CALL_TOOL, toolErrorCodeOf, type RunCall } from './run-call.js';
import type { UserClientEvents, UserClientOptions } from './pool-types.js';
import { closeGeneration, connectGeneration, needsPinning, pinnedFetchFor, reconfigurableInPlace, signatureOf, type Generation } from './user-generation.js';

export { TOOL_ERROR_CODE } from './run-call.js';
/** Longest wait for a replaced client's running calls before it is closed anyway (one constant with the client's drain). @default 60000 */
export { DEFAULT_DRAIN_TIMEOUT_MS };

/** One user's aggregated tools. Obtain it from a {@link ClientPool}. */
export class UserClient extends TypedEmitter<UserClientEvents> {
  readonly #options: UserClientOptions;
  readonly #logger: Logger;
  readonly #limiter: CallLimiter;
  readonly #retiring = new Set<Promise<void>>();
  readonly #retiringGenerations = new Set<Generation>();
  #user: RegistryUser;
  #current: Generation;
  #version = 0;
  #closing: Promise<void> | undefined;

  private constructor(config: UserServerConfig, generation: Generation, options: UserClientOptions) {
    super();
    this.#options = options;
    this.#user = config.user;
    this.#logger = (options.logger ?? noopLogger).child({ user: config.user.name });
    this.onListenerError = (error, event) => this.#logger.error('event listener threw', { event, error: String(error) });
    this.#limiter = new CallLimiter(config.policy?.maxConcurrentCalls ?? Number.POSITIVE_INFINITY);
    this.#current = generation;
    this.#wire(generation);
  }

  /** Connects the servers of `config` (each within its start-up deadline; failures are isolated). */
  static async create(config: UserServerConfig, options: UserClientOptions = {}): Promise<UserClient> {
    const generation = await connectGeneration(config, options);
    return new UserClient(config, generation, options);
  }

  /** The user this client serves. */
  get user(): RegistryUser {
    return this.#user;
  }

  /** The current underlying client (replaced on registry changes: don't keep it). */
  get client(): MultiServerClient {
    return this.#current.client;
  }

  /** Calls running now. */
  get activeCalls(): number {
    return this.#limiter.active;
  }

  /** Calls waiting for a slot under the user's limit. */
  get waitingCalls(): number {
    return this.#limiter.waiting;
  }

  /** True once closed. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  listTools(): CatalogTool[] {
    return this.#current.client.listTools();
  }

  /** The version of the tool catalog (bumps on every change of the current client). */
  get catalogVersion(): number {
    return this.#current.client.catalogVersion;
  }

  getTool(name: string): CatalogTool | undefined {
    return this.#current.client.getTool(name);
  }

  /** Tasks of the user's tools (on the current client; a task lives at its server, so it outlasts a client swap). */
  get tasks(): ToolTasks {
    return this.#current.client.tasks;
  }

  /** Per-server state; errors of servers the user does not own are redacted ({@link TenantDisclosure}). */
  status(): ServerStatus[] {
    return this.#current.disclosure.status(this.#current.client.status());
  }

  listPrompts(): CatalogPrompt[] {
    return this.#current.client.listPrompts();
  }

  getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    const { client, disclosure } = this.#current;
    return client.getPrompt(name, args, options).catch((error: unknown) => Promise.reject(disclosure.error(error)));
  }

  listResources(): CatalogResource[] {
    return this.#current.client.listResources();
  }

  readResource(uri: string, options: CallOptions & { server?: string } = {}): Promise<ReadResourceResult> {
    const { client, disclosure } = this.#current;
    return client.readResource(uri, options).catch((error: unknown) => Promise.reject(disclosure.error(error)));
  }

  listResourceTemplates(): CatalogResourceTemplate[] {
    return this.#current.client.listResourceTemplates();
  }

  /** Subscribes to a resource's updates, kept across restarts (see {@link MultiServerClient.subscribeResource}). */
  subscribeResource(uri: string, options: { server?: string; signal?: AbortSignal } = {}): Promise<SubscribedResource> {
    const { client, disclosure } = this.#current;
    return client.subscribeResource(uri, options).catch((error: unknown) => Promise.reject(disclosure.error(error)));
  }

  /** Ends one subscription (see {@link MultiServerClient.unsubscribeResource}). */
  unsubscribeResource(uri: string, options: { server?: string } = {}): Promise<boolean> {
    return this.#current.client.unsubscribeResource(uri, options);
  }

  /** A server's instructions (see {@link MultiServerClient.instructions}). */
  instructions(server: string): string | undefined {
    return this.#current.client.instructions(server);
  }

  /** `completion/complete` on one server (see {@link MultiServerClient.complete}). */
  complete(server: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    const { client, disclosure } = this.#current;
    return client.complete(server, params, options).catch((error: unknown) => Promise.reject(disclosure.error(error)));
  }

  /** Tries a failed server again now (see {@link MultiServerClient.retryServer}). */
  retryServer(name: string): Promise<boolean> {
    return this.#current.client.retryServer(name);
  }

  /** `error` as this user may see it: errors of servers they do not own redacted (for requests made on {@link connection}). */
  disclose(error: unknown): unknown {
    return this.#current.disclosure.error(error);
  }

  /**
   * The live connection of one server of the current client.
   * @deprecated Every request the gateway makes has a method here (with the user's disclosure applied); kept for existing callers.
   */
  connection(server: string): ServerConnection | undefined {
    return this.#current.client.connection(server);
  }

  /** Calls, errors and latency of the current client (kept across registry edits, except a policy change, which replaces the client). */
  stats(): ClientStats {
    return this.#current.client.stats();
  }

  override on<K extends keyof UserClientEvents>(event: K, listener: Listener<UserClientEvents[K]>): this {
    super.on(event, listener);
    if (event === 'tool-progress' && this.listenerCount('tool-progress') === 1) this.#wireProgress(this.#current, true);
    return this;
  }

  override off<K extends keyof UserClientEvents>(event: K, listener: Listener<UserClientEvents[K]>): this {
    super.off(event, listener);
    if (event === 'tool-progress' && this.listenerCount('tool-progress') === 0) this.#wireProgress(this.#current, false);
    return this;
  }

  /**
   * Calls a tool, within the user's concurrent-call limit (waiting for a slot at most the pool's
   * queue timeout), and records the call in the audit log.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: CallOptions = {}): Promise<ToolResult> {
    return this.#metered(name, args, options, CALL_TOOL, toolErrorCodeOf);
  }

  /**
   * Starts a tool as a task, like {@link callTool}: the start request counts against the user's
   * concurrent-call limit while it runs, and is recorded in the audit log.
   */
  startTask(name: string, args: Record<string, unknown> = {}, options: CallOptions & { ttlMs?: number } = {}): Promise<ToolTask> {
    return this.#metered(name, args, options, (client) => client.tasks.start(name, args, options), () => undefined);
  }

  /** Runs a call under the user's limits (here, then in a cluster), audited. Not `async`: one promise layer less per call. */
  #metered<T>(name: string, args: Record<string, unknown>, options: CallOptions, run: RunCall<T>, errorCodeOf: (result: T) => string | undefined): Promise<T> {
    if (this.#closing !== undefined) return Promise.reject(closedError(this.#user.name));
    const started = performance.now();
    const limiter = this.#limiter;
    const gate = this.#options.callGate;
    // A free slot and nothing for the cluster to count: the call runs here, without the queue's closures.
    if ((gate === undefined || gate.passes(limiter.limit)) && limiter.tryStart()) return this.#direct(name, args, options, started, run, errorCodeOf);
    return this.#queued(name, args, options, started, run, errorCodeOf);
  }

  /** {@link #metered} of a call that may have to wait for a place: the replica's own limit first, then the cluster's. */
  async #queued<T>(name: string, args: Record<string, unknown>, options: CallOptions, started: number, run: RunCall<T>, errorCodeOf: (result: T) => string | undefined): Promise<T> {
    const queueTimeoutMs = this.#options.callQueueTimeoutMs ?? DEFAULT_CALL_QUEUE_TIMEOUT_MS;
    const signal = options.signal === undefined ? {} : { signal: options.signal };
    const gate = this.#options.callGate;
    let ran = false;
    const task = (): Promise<T> => {
      ran = true;
      return this.#direct(name, args, options, started, run, errorCodeOf, false);
    };
    const gated = gate === undefined ? task : () => gate.run(this.#user, this.#limiter.limit, task, { ...signal, waitMs: Math.max(0, queueTimeoutMs - (performance.now() - started)) });
    try {
      return await this.#limiter.run(gated, { ...signal, queueTimeoutMs, subject: `user "${this.#user.name}"` });
    } catch (error) {
      if (ran) throw error;
      // Refused while waiting (timeout, cancelled, closing): filed under the name it was called by.
      this.#audit(name, args, undefined, performance.now() - started, isSwitchboardError(error) ? error.code : ErrorCode.Internal);
      throw this.#current.disclosure.error(error);
    }
  }

  #audit(name: string, args: Record<string, unknown>, generation: Generation | undefined, durationMs: number, errorCode: string | undefined): void {
    if (this.#options.audit !== undefined) auditCall(this.#options.audit, this.#user, generation, name, this.#options.auditArguments === true ? args : undefined, durationMs, errorCode);
  }

  /** A call that has its place (`slot`: a local one taken by `tryStart`, given back at its end): run, counted, audited. */
  #direct<T>(name: string, args: Record<string, unknown>, options: CallOptions, started: number, run: RunCall<T>, errorCodeOf: (result: T) => string | undefined, slot = true): Promise<T> {
    const generation = this.#current;
    return countedCall(generation, (client) => run(client, name, args, options), errorCodeOf, (errorCode) => {
      try {
        this.#audit(name, args, generation, performance.now() - started, errorCode);
      } finally {
        if (slot) this.#limiter.finish();
      }
    });
  }

  /**
   * Applies a new configuration of this user. Returns false when nothing changed. Otherwise connects a
   * new client, swaps it in, emits `tools-changed` (reason `reload`) and retires the old one.
   */
  async refresh(config: UserServerConfig): Promise<boolean> {
    if (this.#closing !== undefined) return false;
    // A new tool-search setting changes what clients on /mcp are offered: they are told to list again.
    const searchChanged = JSON.stringify(this.#user.toolSearch) !== JSON.stringify(config.user.toolSearch);
    this.#user = config.user;
    this.#limiter.setLimit(config.policy?.maxConcurrentCalls ?? Number.POSITIVE_INFINITY);
    if (signatureOf(config) === this.#current.signature) {
      if (searchChanged) this.emit('tools-changed', { added: [], removed: [], renamed: [], version: ++this.#version, reason: 'list-changed' });
      return false;
    }
    if (reconfigurableInPlace(this.#current.config, config)) return this.#reconfigure(config);
    const next = await connectGeneration(config, this.#options);
    // The new client is subscribed before it serves: the subscribers of the old one carry on.
    await carryResourceSubscriptions(this.#current.client, next.client, this.#logger);
    if (this.#closing !== undefined) {
      await closeGeneration(next);
      return false;
    }
    const previous = this.#current;
    const before = previous.client.listTools();
    this.#current = next;
    this.#wire(next);
    const after = next.client.listTools();
    const beforeNames = new Set(before.map((tool) => tool.name));
    const afterNames = new Set(after.map((tool) => tool.name));
    this.emit('tools-changed', {
      added: after.filter((tool) => !beforeNames.has(tool.name)).map((tool) => tool.name),
      removed: before.filter((tool) => !afterNames.has(tool.name)).map((tool) => tool.name),
      renamed: [],
      version: ++this.#version,
      reason: 'reload',
    });
    this.#retire(previous);
    return true;
  }

  /** Applies `config` to the current client: only the servers that differ start or stop. */
  async #reconfigure(config: UserServerConfig): Promise<boolean> {
    const generation = this.#current;
    if (generation.routing.fetch === undefined && needsPinning(config)) generation.routing.fetch = await pinnedFetchFor(config, this.#options);
    generation.routing.tenantServers = config.tenantServers;
    // Before the servers change: their state events are shown under the new configuration.
    generation.disclosure = TenantDisclosure.of(config);
    try {
      await generation.client.reconfigure(config.config);
    } catch (error) {
      if (this.#closing !== undefined) return false;
      throw error;
    }
    generation.config = config;
    generation.signature = signatureOf(config);
    return true;
  }

  /** Closes the client, its servers (processes included) and its connections. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#limiter.rejectWaiting(closedError(this.#user.name));
      // Replaced clients still draining their calls close now too.
      for (const generation of this.#retiringGenerations) generation.idle?.();
      try {
        await Promise.all([closeGeneration(this.#current), ...this.#retiring]);
      } finally {
        this.removeAllListeners();
      }
    })();
    return this.#closing;
  }

  #wire(generation: Generation): void {
    const client = generation.client;
    const current = (): boolean => this.#current === generation && this.#closing === undefined;
    client.on('tools-changed', (event) => {
      if (current()) this.emit('tools-changed', { ...event, version: ++this.#version });
    });
    client.on('prompts-changed', (event) => {
      if (current()) this.emit('prompts-changed', event);
    });
    client.on('resources-changed', (event) => {
      if (current()) this.emit('resources-changed', event);
    });
    client.on('server-state-change', (event) => {
      if (current()) this.emit('server-state-change', event.error === undefined ? event : { ...event, error: generation.disclosure.error(event.error) });
    });
    client.on('server-log', (event) => {
      if (current() && generation.disclosure.showsLog(event)) this.emit('server-log', event);
    });
    // Call events come from every generation: a replaced client's running calls still end. Built only
    // when someone listens (a dashboard, the cluster relay): per call they were a visible share (issue 17).
    client.on('tool-call-start', (event) => {
      if (this.listenerCount('tool-call-start') > 0) this.emit('tool-call-start', { ...event, userId: this.#user.id });
    });
    client.on('tool-call-end', (event) => {
      if (this.listenerCount('tool-call-end') > 0) this.emit('tool-call-end', { ...event, userId: this.#user.id });
    });
    client.on('tool-call-refused', (event) => {
      if (this.listenerCount('tool-call-refused') > 0) this.emit('tool-call-refused', { ...event, userId: this.#user.id });
    });
    if (this.listenerCount('tool-progress') > 0) this.#wireProgress(generation, true);
  }

  #wireProgress(generation: Generation, on: boolean): void {
    if (on && generation.progress === undefined) {
      generation.progress = (event) => this.emit('tool-progress', { ...event, userId: this.#user.id });
      generation.client.on('tool-progress', generation.progress);
    } else if (!on && generation.progress !== undefined) {
      generation.client.off('tool-progress', generation.progress);
      generation.progress = undefined;
    }
  }

  #retire(generation: Generation): void {
    this.#retiringGenerations.add(generation);
    const retiring = (async () => {
      if (generation.running > 0 && this.#closing === undefined) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.#options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
          generation.idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      this.#retiringGenerations.delete(generation);
      await closeGeneration(generation);
    })().catch((error: unknown) => this.#logger.warn('closing a replaced client failed', { error: String(error) }));
    this.#retiring.add(retiring);
    void retiring.finally(() => this.#retiring.delete(retiring));
  }

}

function closedError(user: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.ServerDisconnected, `the client of user "${user}" was closed`, { details: { retryable: true } });
}
