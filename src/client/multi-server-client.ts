/**
 * @module client/multi-server-client
 * Many MCP servers as one tool set. Servers start concurrently, each within its own deadline; one
 * failure never breaks the rest; names are provider-safe with a stored routing table; tool lists are
 * cached and refreshed on `list_changed`; calls route by exposed name at call time, so anything handed
 * out keeps working across restarts, reconnects and list changes.
 *
 * This class is the facade: the parts live in `servers/` (one slot per server, start, refresh,
 * reconfigure, drain), `catalog/` (names, routing tables, resources), `call/` (the call path's layers)
 * and `routing/` (prompts, resources, completion, subscriptions), sharing one {@link ClientCore}.
 */

import type { Registry } from 'prom-client';
import type { SwitchboardConfig } from '../config/server-spec.js';
import type { GetPromptResult, ReadResourceResult } from '../connection/mcp-types.js';
import type { CallOptions, ServerConnection } from '../connection/server-connection.js';
import type { ConfigIssue } from '../errors.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { attachPrometheus, type PrometheusOptions } from '../metrics/prometheus.js';
import type { ClientStats } from '../metrics/stats-collector.js';
import type { ToolResult } from '../result/tool-result.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import { callTool } from './call/call-tool.js';
import type { CatalogPrompt, CatalogResource, CatalogResourceTemplate, CatalogTool } from './catalog/catalog-items.js';
import type { CatalogStore, KnownToolNames } from './catalog/catalog-store.js';
import { openCatalogStore } from './catalog/open-catalog-store.js';
import type { NameReport } from './catalog/name-catalog.js';
import { createClientCore, type ClientCore } from './client-core.js';
import type { MultiServerClientEvents } from './multi-server-client-events.js';
import type { ConfigInput, MultiServerClientOptions, ToolCallOptions } from './multi-server-client-options.js';
import { normalizeConfigInput } from './normalize-config-input.js';
import { getPrompt } from './routing/get-prompt.js';
import { resourceOwner } from './routing/resource-owner.js';
import { subscribeResource, unsubscribeResource } from './routing/subscribe-resource.js';
import type { SubscribedResource } from './routing/resource-subscriptions.js';
import { servingConnection } from './routing/serving-connection.js';
import { searchCatalog } from './search/catalog-search.js';
import type { ToolSearchOptions } from './search/tool-index.js';
import { applyReconfigure } from './servers/apply-reconfigure.js';
import { closeSlots } from './servers/close-slots.js';
import type { ReconfigureResult } from './servers/reconfigure-plan.js';
import { createServerSlot } from './servers/server-slot.js';
import { statusOf, type ServerStatus } from './servers/server-status.js';
import { startAll, startFailures } from './servers/start-all.js';
import { retryServerNow, startServerNow } from './servers/start-on-request.js';
import { isServing } from './serving.js';

export type { CatalogPrompt, CatalogResource, CatalogResourceTemplate, CatalogTool } from './catalog/catalog-items.js';
export type { MultiServerClientEvents, ToolsChangedReason } from './multi-server-client-events.js';
export { DEFAULT_LIST_CHANGED_DEBOUNCE_MS, DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRY_DELAY_MS, type ConfigInput, type MultiServerClientOptions, type ToolCallOptions } from './multi-server-client-options.js';
export type { ReconfigureResult } from './servers/reconfigure-plan.js';
export type { ServerStatus } from './servers/server-status.js';
export { DEFAULT_DRAIN_TIMEOUT_MS } from './servers/drain-calls.js';

/**
 * Many MCP servers as one tool set.
 *
 * @example
 * ```ts
 * const client = await MultiServerClient.connect({ mcpServers: { fs: { path: '@modelcontextprotocol/server-filesystem .' } } });
 * for (const tool of client.listTools()) console.log(tool.name, tool.server);
 * const result = await client.callTool('read_file', { path: 'README.md' });
 * await client.close();
 * ```
 */
export class MultiServerClient extends TypedEmitter<MultiServerClientEvents> {
  readonly #core: ClientCore;
  #closing: Promise<void> | undefined;
  /** Reconfigurations run one at a time. */
  #reconfiguring: Promise<unknown> = Promise.resolve();
  #prometheus: Promise<{ registry: Registry; detach: () => void }> | undefined;

  private constructor(config: SwitchboardConfig, warnings: readonly ConfigIssue[], options: MultiServerClientOptions, store?: CatalogStore, known?: ReadonlyMap<string, KnownToolNames>) {
    super();
    const events = { emit: this.emit.bind(this), listenerCount: this.listenerCount.bind(this) };
    this.#core = createClientCore(config, warnings, options, events, store);
    this.onListenerError = (error, event) => this.#core.logger.error('event listener threw', { event, error: String(error) });
    for (const spec of config.servers) this.#core.slots.set(spec.name, createServerSlot(this.#core, spec, known?.get(spec.name)));
  }

  /** The configuration in use (the latest one given to {@link reconfigure}). */
  get config(): SwitchboardConfig {
    return this.#core.config;
  }

  /** Warnings found while reading the config (unknown keys, disabled servers). */
  get warnings(): readonly ConfigIssue[] {
    return this.#core.warnings;
  }

  /**
   * Starts every enabled server at once and returns when each is ready or has failed (about the
   * time of the slowest, bounded by each server's `timeout`). With `onServerError: 'throw'` any
   * failure rejects, listing all of them; with `'skip'` (the default) failed servers are reported by
   * `status()` and retried in the background.
   */
  static async connect(config: ConfigInput, options: MultiServerClientOptions = {}): Promise<MultiServerClient> {
    const { config: normalized, warnings } = await normalizeConfigInput(config);
    const store = await openCatalogStore(options);
    const client = new MultiServerClient(normalized, warnings, options, store, await store?.load(normalized.servers));
    try {
      await startAll(client.#core);
      const failures = normalized.onServerError === 'throw' ? startFailures(client.#core) : undefined;
      if (failures !== undefined) throw failures;
    } catch (error) {
      await client.close();
      throw error;
    }
    return client;
  }

  /**
   * Applies a new configuration in place. A server whose entry is unchanged keeps running — its
   * process or session, cached results and stats carry on. Added servers start, and a changed server
   * starts anew beside the old one, which keeps serving until the new one is ready or failed (each
   * within its own deadline, all at once). Removed and replaced servers finish their running calls
   * (up to `drainTimeoutMs`) and close. The catalog is rebuilt once: one `tools-changed` (reason
   * `reload`) with what was added and removed. Reconfigurations run one at a time.
   */
  reconfigure(config: ConfigInput): Promise<ReconfigureResult> {
    const run = this.#reconfiguring.then(async () => {
      if (this.#core.closing) throw new SwitchboardError(ErrorCode.ServerDisconnected, 'the client is closed: reconfigure needs an open client; connect a new one', { operation: 'reconfigure' });
      const { config: normalized, warnings } = await normalizeConfigInput(config);
      return applyReconfigure(this.#core, normalized, warnings);
    });
    this.#reconfiguring = run.catch(() => {});
    return run;
  }

  /**
   * Tries a server that failed again now, instead of at its next background retry (e.g. after a
   * person logged in to it). Resolves when it is ready or failed again; false when the server is
   * unknown, disabled, or not failed.
   */
  retryServer(name: string): Promise<boolean> {
    return retryServerNow(this.#core, name);
  }

  /**
   * Starts an enabled server that was left out by `autoStart` (or retries a failed one now).
   * Resolves when it is ready or failed; false when the server is unknown, disabled, or already up
   * or starting.
   */
  startServer(name: string): Promise<boolean> {
    return startServerNow(this.#core, name);
  }

  /**
   * Whose a tool name is, even while its server is not up (named from its last known list): the
   * server, the tool's name there, and whether it is offered now.
   */
  ownerOf(name: string): { server: string; originalName: string; offered: boolean } | undefined {
    const owner = this.#core.catalogs.tools.owner(name);
    return owner === undefined ? undefined : { server: owner.server, originalName: owner.originalName, offered: !owner.offline };
  }

  /** The version of the tool catalog; bumps on every change. */
  get catalogVersion(): number {
    return this.#core.catalogs.tools.version;
  }

  /** Every tool of every ready server, under its exposed name. Cached: no `tools/list` per call. */
  listTools(): CatalogTool[] {
    return [...this.#core.catalogs.tools.entries];
  }

  /** The tools best matching `query` (BM25 over name words, descriptions, parameters, servers), best first. */
  searchTools(query: string, options: ToolSearchOptions = {}): CatalogTool[] {
    return searchCatalog(this, query, options);
  }

  /** The tool an exposed name routes to (also a name given out before a rename). */
  getTool(name: string): CatalogTool | undefined {
    return this.#core.catalogs.tools.route(name);
  }

  /**
   * A stable handle: it routes by name at call time, so it survives restarts, reconnects and
   * list changes (and renames, while the tool exists).
   */
  tool(name: string): { readonly name: string; call(args?: Record<string, unknown>, options?: CallOptions): Promise<ToolResult> } {
    return { name, call: (args = {}, options = {}) => this.callTool(name, args, options) };
  }

  /**
   * Calls a tool by its exposed name. Arguments are checked against the tool's schema first. A result
   * with `isError: true` is returned, not thrown; failures throw a SwitchboardError whose message says
   * what happened and whether retrying can help.
   */
  callTool(name: string, args: Record<string, unknown> = {}, options: ToolCallOptions = {}): Promise<ToolResult> {
    return callTool(this.#core, name, args, options);
  }

  /** Per-server and per-tool counters, latency percentiles and timelines. */
  stats(): ClientStats {
    return this.#core.stats.snapshot(new Map([...this.#core.slots].filter(([, slot]) => slot.spec.enabled).map(([name, slot]) => [name, slot.state])));
  }

  /**
   * Prometheus metrics of this client in a `prom-client` registry (created on first call; pass the
   * gateway's registry and labels to share one). Calls are counted from then on; totals before are
   * seeded.
   */
  prometheusRegistry(options: PrometheusOptions = {}): Promise<Registry> {
    this.#prometheus ??= attachPrometheus(this.#core.stats, () => this.stats(), options);
    return this.#prometheus.then(({ registry }) => registry);
  }

  /** The Prometheus text exposition of this client's metrics. */
  async toPrometheus(): Promise<string> {
    return (await this.prometheusRegistry()).metrics();
  }

  /** Every prompt of every ready server, named like tools. */
  listPrompts(): CatalogPrompt[] {
    return [...this.#core.catalogs.prompts.entries];
  }

  /** Gets a prompt by its exposed name. */
  getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    return getPrompt(this.#core, name, args, options);
  }

  /** Every resource of every serving server; URIs are unique (rewritten only when two servers share one). */
  listResources(): CatalogResource[] {
    return [...this.#core.catalogs.resources.values()];
  }

  /** Every resource template of every serving server, with its server. */
  listResourceTemplates(): CatalogResourceTemplate[] {
    return [...this.#core.slots.values()].filter((slot) => isServing(slot.state)).flatMap((slot) => slot.resourceTemplates.map((template) => ({ ...template, server: slot.spec.name })));
  }

  /**
   * Reads a resource by its URI (as listed, or one expanded from a template). When several servers
   * could serve it, pass `server`.
   */
  async readResource(uri: string, options: CallOptions & { server?: string } = {}): Promise<ReadResourceResult> {
    const resource = await resourceOwner(this.#core, uri, options.server);
    return servingConnection(this.#core, resource.server).readResource(resource.uri, options);
  }

  /**
   * Subscribes to updates of a resource (found like {@link readResource}'s): `resources-changed`
   * events with its `uri` follow, the URI as its server names it. Counted per call, each ended by
   * one {@link unsubscribeResource}; sent again whenever the server comes back (restart, reconnect,
   * new HTTP session, reconfiguration). Resolves with the server and its URI.
   */
  subscribeResource(uri: string, options: { server?: string; signal?: AbortSignal } = {}): Promise<SubscribedResource> {
    return subscribeResource(this.#core, uri, options);
  }

  /** Ends one {@link subscribeResource}; the last one unsubscribes at the server. False when it was not subscribed. */
  unsubscribeResource(uri: string, options: { server?: string } = {}): Promise<boolean> {
    return unsubscribeResource(this.#core, uri, options);
  }

  /** The resources subscribed to now, with their subscriber counts (to carry them over to a client that replaces this one). */
  resourceSubscriptions(): Array<SubscribedResource & { subscribers: number }> {
    return this.#core.subscriptions.list();
  }

  /** A server's instructions from its handshake, while it serves. */
  instructions(server: string): string | undefined {
    const slot = this.#core.slots.get(server);
    return slot !== undefined && isServing(slot.state) ? slot.connection?.instructions : undefined;
  }

  /** Sends `completion/complete` to a server (its `ref` as that server names it); resolves with the server's answer as sent. */
  async complete(server: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    return servingConnection(this.#core, server).request('completion/complete', params, options);
  }

  /** The live connection of a server (for protocol features this class does not wrap). */
  connection(server: string): ServerConnection | undefined {
    return this.#core.slots.get(server)?.connection;
  }

  /** Per-server state, protocol version and last error. */
  status(): ServerStatus[] {
    return [...this.#core.slots.values()].map((slot) => statusOf(slot, (server) => this.#core.catalogs.tools.countOf(server)));
  }

  /** Every rename and collision of the current catalogs. */
  catalogReport(): { tools: NameReport; prompts: NameReport; resources: { collisions: Array<{ uri: string; servers: string[] }> } } {
    const catalogs = this.#core.catalogs;
    return { tools: catalogs.tools.report, prompts: catalogs.prompts.report, resources: { collisions: catalogs.resourceCollisions } };
  }

  /** Closes every connection and ends every server process. Idempotent. */
  close(): Promise<void> {
    this.#core.closing = true;
    this.#closing ??= closeSlots(this.#core).finally(() => {
      this.removeAllListeners();
      this.#core.cache.clear();
      this.#prometheus?.then(({ detach }) => detach()).catch(() => {});
    });
    return this.#closing;
  }
}
