/**
 * @module client/multi-server-client
 * Many MCP servers as one tool set. Servers start concurrently, each within its own deadline; one
 * failure never breaks the rest; names are provider-safe with a stored routing table; tool lists are
 * cached and refreshed on `list_changed`; calls route by exposed name at call time, so anything handed
 * out keeps working across restarts, reconnects and list changes.
 */

import type { Registry } from 'prom-client';
import type { CachePolicy, RetryPolicy, ServerSpec, SwitchboardConfig } from '../config/server-spec.js';
import { DEFAULT_RETRY_POLICY } from '../config/server-spec.js';
import { unresolvedServerError } from '../config/unresolved-server-spec.js';
import type { ConfigIssue } from '../errors.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import type {
  GetPromptResult,
  Icon,
  JsonSchema,
  PromptArgument,
  PromptDefinition,
  ReadResourceResult,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ServerInfo,
  ToolAnnotations,
  ToolDefinition,
} from '../connection/mcp-types.js';
import type { ProgressUpdate } from '../connection/lean-requester.js';
import { ServerConnection, type CallOptions, type ServerConnectionOptions } from '../connection/server-connection.js';
import { StartLimiter } from '../connection/start-limiter.js';
import { attachPrometheus, type PrometheusOptions } from '../metrics/prometheus.js';
import { StatsCollector, type ClientStats } from '../metrics/stats-collector.js';
import { endToolSpan, startToolSpan } from '../metrics/tracing.js';
import { backoffDelay } from '../util/backoff.js';
import type { ServerState } from '../connection/server-state.js';
import type { ToolResult } from '../result/tool-result.js';
import { TypedEmitter } from '../util/typed-emitter.js';
import { ArgumentValidator, formatArgumentProblems, type ArgumentProblem } from './argument-validator.js';
import { refusalOf } from './refusal-of.js';
import { refusedCallEvent, type RefusedCallEvent } from './refused-call-event.js';
import { describeCallFailure } from './call-failure.js';
import { logOptionalListFailure } from './optional-list-failure.js';
import type { CatalogStore, KnownToolNames } from './catalog-store.js';
import { globMatcher } from './glob.js';
import { ListChangeDebouncer } from './list-change-debouncer.js';
import { ResultCache } from './result-cache.js';
import { catalogExtras, withSafeIcons } from './catalog-extras.js';
import { uiResourceServers } from './mcp-apps.js';
import { OutputCheck } from './output-check.js';
import { withTraceMeta } from './trace-meta.js';
import { CachedReads } from './cached-reads.js';
import { callAsTask } from './tasks/call-as-task.js';
import { taskSupportOf } from './tasks/task-types.js';
import { ToolTasks } from './tasks/tool-tasks.js';
import type { ReadCache } from './read-cache.js';
import { ResourceSubscriptions, type SubscribedResource } from './resource-subscriptions.js';
import type { NameReport } from './name-catalog.js';
import { RoutedCatalog, type CatalogDiff } from './routed-catalog.js';
import { knownToolsFromNames, toolSources } from './tool-sources.js';
import { unknownToolError, type ServerFacts } from './unknown-tool.js';

/** Debounce of `list_changed` notifications per server. @default 100 */
export const DEFAULT_LIST_CHANGED_DEBOUNCE_MS = 100;
/** First delay before retrying a server that failed; doubles up to {@link DEFAULT_MAX_RETRY_DELAY_MS}. */
export const DEFAULT_RETRY_DELAY_MS = 1_000;
/** Longest delay between background retries. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 30_000;

/** A tool in the combined catalog. */
export interface CatalogTool {
  /** The exposed, provider-safe name; call the tool by it. */
  name: string;
  server: string;
  originalName: string;
  title?: string;
  /** The server's description, prefixed with `[server]`. */
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** The server's icons for the tool (only safe image URIs, see `safeIcons`). */
  icons?: Icon[];
  /** The tool's `_meta` as listed (MCP Apps' `ui.resourceUri` among others). */
  _meta?: Record<string, unknown>;
  /** How the tool runs: `taskSupport` says whether it may (`optional`) or must (`required`) run as a task. */
  execution?: { taskSupport?: 'forbidden' | 'optional' | 'required'; [key: string]: unknown };
}

/** A prompt in the combined catalog. */
export interface CatalogPrompt {
  name: string;
  server: string;
  originalName: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** A resource in the combined catalog. `uri` is unique across servers (rewritten only on a clash). */
export interface CatalogResource {
  uri: string;
  server: string;
  originalUri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  icons?: Icon[];
  _meta?: Record<string, unknown>;
}

/** A resource template, with its server. */
export interface CatalogResourceTemplate extends ResourceTemplateDefinition {
  server: string;
}

/** The state of one server, as `status()` and `tools --json` show it. */
export interface ServerStatus {
  name: string;
  state: ServerState;
  enabled: boolean;
  transport?: 'stdio' | 'http' | 'sse';
  protocolVersion?: string;
  serverInfo?: ServerInfo;
  toolCount: number;
  /** Successful restarts or reconnects. */
  restarts: number;
  /** Since when the server has been ready (ms since epoch). */
  readyAt?: number;
  pid?: number;
  /** The last start: ms from spawn (or connect) until ready, tools listed; and ms spent waiting for a start slot. */
  startMs?: number;
  queuedMs?: number;
  error?: { code: string; message: string; hint?: string; stderr?: string };
}

/** Why the tool set changed. */
export type ToolsChangedReason = 'list-changed' | 'server-up' | 'server-down' | 'reload';

/** Events of a {@link MultiServerClient}. */
export interface MultiServerClientEvents {
  'tools-changed': CatalogDiff & { version: number; reason: ToolsChangedReason; server?: string };
  'prompts-changed': CatalogDiff & { version: number; server?: string };
  /** A server's resources changed: its list (no `uri`), or one resource it was subscribed to (`uri`, as the server names it). */
  'resources-changed': { server: string; uri?: string };
  'server-state-change': { server: string; from: ServerState; to: ServerState; error?: SwitchboardError };
  'tool-call-start': { callId: number; name: string; server: string; originalName: string };
  'tool-call-end': { callId: number; name: string; server: string; originalName: string; durationMs: number; ok: boolean; isError: boolean; errorCode?: string };
  /** A call refused before anything was sent (no `tool-call-start` or `tool-call-end` for it). */
  'tool-call-refused': RefusedCallEvent;
  'tool-progress': { callId: number; name: string; server: string; progress: number; total?: number; message?: string };
  'server-log': { server: string; level: string; logger?: string; data: unknown; source: 'mcp' | 'stderr' };
}

/** Options of {@link MultiServerClient.connect}. */
export interface MultiServerClientOptions extends Omit<ServerConnectionOptions, 'logger'> {
  /** @default noopLogger */
  logger?: Logger;
  /**
   * Server processes started at once by this client (a start's deadline runs from its spawn). Default:
   * the config's `maxConcurrentStarts`, else the process-wide limit of twice the CPU count.
   */
  maxConcurrentStarts?: number;
  /** Check arguments against `inputSchema` before sending. @default true */
  validateArguments?: boolean;
  /** Wait for more `list_changed` before re-listing; 0 re-lists at once. @default DEFAULT_LIST_CHANGED_DEBOUNCE_MS */
  listChangedDebounceMs?: number;
  /** Re-list at the latest this long after a `list_changed`, even while more keep coming. @default DEFAULT_LIST_CHANGED_MAX_WAIT_MS */
  listChangedMaxWaitMs?: number;
  /** Retry failed servers in the background, and reconnect servers that go away. @default true */
  retryFailedServers?: boolean;
  /** @default DEFAULT_RETRY_DELAY_MS */
  retryDelayMs?: number;
  /** @default DEFAULT_MAX_RETRY_DELAY_MS */
  maxRetryDelayMs?: number;
  /** Options for one server's connection (e.g. a per-user fetch), merged over the shared ones. */
  connectionOptions?: (spec: ServerSpec) => ServerConnectionOptions;
  /** Where `public` hinted resource reads are kept for the clients of other users too (the gateway's pool shares one). */
  sharedReadCache?: ReadCache;
  /** Bound on the bytes of cached results, all servers together. @default DEFAULT_CACHE_MAX_BYTES */
  cacheMaxBytes?: number;
  /** The clock of cache expiry and stats timelines (ms since epoch). @default Date.now */
  now?: () => number;
  /** How long {@link MultiServerClient.reconfigure} lets a removed server finish its calls. @default DEFAULT_DRAIN_TIMEOUT_MS */
  drainTimeoutMs?: number;
  /**
   * A directory for each server's last known tool names (the CLI uses `.switchboard/catalog` beside
   * the config file), so names are decided from every configured server even when some are not up,
   * and a server need not start before its names are known. A {@link CatalogStore} keeps them
   * elsewhere (the gateway's pool uses the registry's). `false` or absent: not persisted.
   */
  catalogCache?: string | false | CatalogStore;
  /** Servers to start in `connect()`: all enabled ones (`true`, the default), only those named, or none; the others wait for {@link MultiServerClient.startServer}. */
  autoStart?: boolean | readonly string[];
}

/** Options of {@link MultiServerClient.callTool}. */
export interface ToolCallOptions extends CallOptions {
  /** Only run the tool if it is this server's; otherwise fail with `TOOL_NOT_FOUND` (suggestions from this server). */
  server?: string;
}

/** A config object (the shape of a config file) or an already normalized config. */
export type ConfigInput = SwitchboardConfig | Record<string, unknown>;

interface ServerEntry {
  spec: ServerSpec;
  connection: ServerConnection | undefined;
  starting: Promise<void> | undefined;
  tools: ToolDefinition[];
  /** The last list of tools known (from this process or the catalog cache); names are decided from it while the server is not up. */
  knownTools: ToolDefinition[] | undefined;
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
  resourceTemplates: ResourceTemplateDefinition[];
  lastError: SwitchboardError | undefined;
  state: ServerState;
  retryTimer: NodeJS.Timeout | undefined;
  retryAttempt: number;
  listTimers: ListChangeDebouncer;
  /** Tools named by the cache policy's `tools` globs. */
  cacheMatcher: ((name: string) => boolean) | undefined;
  /** Calls sent to this server and not yet answered (a retired entry closes when it reaches 0). */
  running: number;
  idle: (() => void) | undefined;
  /** Removed or replaced by a reconfiguration: its events no longer count. */
  retired: boolean;
  /** The last start's timing (see ServerStatus.startMs). */
  startTiming: { startMs: number; queuedMs: number } | undefined;
}

/** What {@link MultiServerClient.reconfigure} did, by server name. */
export interface ReconfigureResult {
  added: string[];
  removed: string[];
  /** Servers whose entry changed: a new connection replaced the old one. */
  restarted: string[];
  /** Servers whose entry is the same: their process or session, cache and stats carry on. */
  unchanged: string[];
}

/** Longest wait for a removed or replaced server's running calls before it is closed anyway. */
export const DEFAULT_DRAIN_TIMEOUT_MS = 60_000;

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
  #config: SwitchboardConfig;
  /** Warnings found while reading the config (unknown keys, disabled servers). */
  #warnings: readonly ConfigIssue[];
  readonly #options: MultiServerClientOptions;
  readonly #logger: Logger;
  readonly #entries = new Map<string, ServerEntry>();
  readonly #validator: ArgumentValidator;
  readonly #outputCheck: OutputCheck;
  #tools: RoutedCatalog<CatalogTool>;
  #prompts: RoutedCatalog<CatalogPrompt>;
  #resources = new Map<string, CatalogResource>();
  #resourceCollisions: Array<{ uri: string; servers: string[] }> = [];
  #closing: Promise<void> | undefined;
  #nextCallId = 0;
  #started = false;
  readonly #cache: ResultCache;
  readonly #reads: CachedReads;
  #tasks: ToolTasks | undefined;
  /** Exposed names of tools whose server is down, to explain failed calls. */
  readonly #unavailable = new Map<string, string>();
  /** Servers that are enabled (the others are never started). */
  #enabledCount: number;
  /** Removed or replaced servers finishing their calls before they close. */
  readonly #retiring = new Set<Promise<void>>();
  readonly #retiringEntries = new Set<ServerEntry>();
  /** Reconfigurations run one at a time. */
  #reconfiguring: Promise<unknown> = Promise.resolve();
  readonly #stats: StatsCollector;
  #prometheus: Promise<{ registry: Registry; detach: () => void }> | undefined;
  readonly #startLimiter: StartLimiter | undefined;
  readonly #catalogStore: CatalogStore | undefined;
  readonly #subscriptions: ResourceSubscriptions;

  private constructor(config: SwitchboardConfig, warnings: readonly ConfigIssue[], options: MultiServerClientOptions, store?: CatalogStore, known?: ReadonlyMap<string, KnownToolNames>) {
    super();
    this.#config = config;
    this.#warnings = warnings;
    this.#options = options;
    this.#logger = options.logger ?? noopLogger;
    this.#validator = new ArgumentValidator(this.#logger);
    this.#outputCheck = new OutputCheck(this.#validator, this.#logger);
    this.#subscriptions = new ResourceSubscriptions(this.#logger);
    this.#reads = new CachedReads({ ...(options.sharedReadCache === undefined ? {} : { shared: options.sharedReadCache }), ...(options.now === undefined ? {} : { now: options.now }) });
    this.#cache = new ResultCache({
      ...(options.cacheMaxBytes === undefined ? {} : { maxBytes: options.cacheMaxBytes }),
      ...(options.now === undefined ? {} : { now: options.now }),
      onInvalidate: (server) => this.#reads.invalidate(server),
    });
    this.#stats = new StatsCollector(options.now);
    const maxStarts = options.maxConcurrentStarts ?? config.maxConcurrentStarts;
    this.#startLimiter = options.startLimiter ?? (maxStarts === undefined ? undefined : new StartLimiter(maxStarts));
    this.#tools = RoutedCatalog.empty(config.naming);
    this.#prompts = RoutedCatalog.empty(config.naming);
    this.#enabledCount = config.servers.filter((spec) => spec.enabled).length;
    this.onListenerError = (error, event) => this.#logger.error('event listener threw', { event, error: String(error) });
    this.#catalogStore = store;
    for (const spec of config.servers) this.#entries.set(spec.name, this.#newEntry(spec, known?.get(spec.name)));
  }

  /** The configuration in use (the latest one given to {@link reconfigure}). */
  get config(): SwitchboardConfig {
    return this.#config;
  }

  /** Warnings found while reading the config (unknown keys, disabled servers). */
  get warnings(): readonly ConfigIssue[] {
    return this.#warnings;
  }

  #newEntry(spec: ServerSpec, known?: KnownToolNames): ServerEntry {
    const entry: ServerEntry = {
      spec,
      connection: undefined,
      starting: undefined,
      tools: [],
      knownTools: known === undefined ? undefined : knownToolsFromNames(known.tools),
      prompts: [],
      resources: [],
      resourceTemplates: [],
      lastError: undefined,
      state: spec.enabled ? 'connecting' : 'closed',
      retryTimer: undefined,
      retryAttempt: 0,
      listTimers: new ListChangeDebouncer({ delayMs: this.#options.listChangedDebounceMs ?? DEFAULT_LIST_CHANGED_DEBOUNCE_MS, ...(this.#options.listChangedMaxWaitMs === undefined ? {} : { maxWaitMs: this.#options.listChangedMaxWaitMs }) }),
      cacheMatcher: spec.cache?.tools === undefined || spec.cache.tools.length === 0 ? undefined : globMatcher(spec.cache.tools),
      running: 0,
      idle: undefined,
      retired: false,
      startTiming: undefined,
    };
    const unresolved = spec.enabled ? unresolvedServerError(spec) : undefined;
    if (unresolved !== undefined) {
      // Its variables have no value: it cannot start, and says why; the other servers carry on.
      entry.state = 'failed';
      entry.lastError = unresolved;
      this.#logger.warn('server failed to start', { server: spec.name, code: unresolved.code, error: unresolved.message, ...(unresolved.hint === undefined ? {} : { hint: unresolved.hint }) });
    } else if (spec.enabled) {
      // One connection per server entry: it restarts and reconnects itself.
      entry.connection = new ServerConnection(spec, {
        ...this.#options,
        logger: this.#logger,
        ...(this.#startLimiter === undefined ? {} : { startLimiter: this.#startLimiter }),
        ...this.#options.connectionOptions?.(spec),
      });
      this.#wire(entry, entry.connection);
    }
    return entry;
  }

  /**
   * Starts every enabled server at once and returns when each is ready or has failed (about the
   * time of the slowest, bounded by each server's `timeout`). With `onServerError: 'throw'` any
   * failure rejects, listing all of them; with `'skip'` (the default) failed servers are reported by
   * `status()` and retried in the background.
   */
  static async connect(config: ConfigInput, options: MultiServerClientOptions = {}): Promise<MultiServerClient> {
    // Loaded on first use: config validation brings zod, which a program passing specs never needs.
    const { config: normalized, warnings } = isNormalized(config) ? { config, warnings: [] } : (await import('../config/normalize-config.js')).normalizeConfig(config);
    const store = await openCatalogStore(options);
    const client = new MultiServerClient(normalized, warnings, options, store, await store?.load(normalized.servers));
    try {
      await client.#startAll();
    } catch (error) {
      await client.close();
      throw error;
    }
    if (normalized.onServerError === 'throw') {
      // Servers left out by `autoStart` are not failures (they stay `closed`).
      const failures = [...client.#entries.values()].filter((entry) => entry.spec.enabled && entry.state !== 'ready' && entry.state !== 'closed');
      if (failures.length > 0) {
        await client.close();
        throw new SwitchboardError(
          ErrorCode.ServerStartFailed,
          `${failures.length} server${failures.length === 1 ? '' : 's'} failed to start:\n${failures.map((entry) => `  ${entry.lastError?.message ?? entry.spec.name}`).join('\n')}`,
          { details: { failures: failures.map((entry) => ({ server: entry.spec.name, ...(entry.lastError?.toJSON() ?? {}) })) } },
        );
      }
    }
    return client;
  }

  async #startAll(): Promise<void> {
    const only = this.#options.autoStart ?? true;
    const entries = [...this.#entries.values()].filter((entry) => entry.spec.enabled && (only === true || (only !== false && only.includes(entry.spec.name))));
    for (const entry of this.#entries.values()) if (!entries.includes(entry)) this.#setEntryState(entry, 'closed');
    await Promise.all(entries.map((entry) => this.#start(entry, false)));
    this.#rebuild('reload', undefined, false);
    // Retries start once connect() has its answer, so its result always reflects the first attempt.
    this.#started = true;
    for (const entry of entries) if (entry.state === 'failed') this.#scheduleRetry(entry);
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
    const run = this.#reconfiguring.then(() => this.#reconfigureNow(config));
    this.#reconfiguring = run.catch(() => {});
    return run;
  }

  async #reconfigureNow(input: ConfigInput): Promise<ReconfigureResult> {
    if (this.#closing !== undefined) throw new SwitchboardError(ErrorCode.ServerDisconnected, 'the client is closed: reconfigure needs an open client; connect a new one');
    const { config, warnings } = isNormalized(input) ? { config: input, warnings: [] } : (await import('../config/normalize-config.js')).normalizeConfig(input);
    const result: ReconfigureResult = { added: [], removed: [], restarted: [], unchanged: [] };
    const next = new Map<string, ServerEntry>();
    const known = await this.#catalogStore?.load(config.servers.filter((spec) => JSON.stringify(this.#entries.get(spec.name)?.spec) !== JSON.stringify(spec)));
    for (const spec of config.servers) {
      const current = this.#entries.get(spec.name);
      if (current !== undefined && JSON.stringify(current.spec) === JSON.stringify(spec)) {
        result.unchanged.push(spec.name);
        continue;
      }
      (current === undefined ? result.added : result.restarted).push(spec.name);
      next.set(spec.name, this.#newEntry(spec, known?.get(spec.name)));
    }
    for (const name of this.#entries.keys()) if (!config.servers.some((spec) => spec.name === name)) result.removed.push(name);
    const starting = [...next.values()].filter((entry) => entry.spec.enabled);
    await Promise.all(starting.map((entry) => this.#start(entry, false)));
    if (this.#closing !== undefined) {
      await Promise.all([...next.values()].map((entry) => entry.connection?.close()));
      throw new SwitchboardError(ErrorCode.ServerDisconnected, 'the client was closed while it was being reconfigured');
    }
    const leaving: ServerEntry[] = [];
    for (const name of [...result.removed, ...result.restarted]) {
      const old = this.#entries.get(name);
      if (old !== undefined) leaving.push(old);
      this.#cache.invalidate(name);
      this.#unavailable.forEach((server, tool) => server === name && this.#unavailable.delete(tool));
    }
    for (const name of result.removed) {
      this.#entries.delete(name);
      this.#subscriptions.forget(name);
    }
    for (const [name, entry] of next) this.#entries.set(name, entry);
    // Keep the order of the new configuration (status() and the catalog follow it).
    const ordered = config.servers.map((spec) => [spec.name, this.#entries.get(spec.name)] as const).filter((pair): pair is readonly [string, ServerEntry] => pair[1] !== undefined);
    this.#entries.clear();
    for (const [name, entry] of ordered) this.#entries.set(name, entry);
    this.#config = config;
    this.#warnings = warnings;
    this.#enabledCount = config.servers.filter((spec) => spec.enabled).length;
    for (const entry of leaving) this.#retire(entry, result.removed.includes(entry.spec.name));
    if (result.added.length + result.removed.length + result.restarted.length > 0) this.#rebuild('reload', undefined, true);
    for (const entry of starting) if (entry.state === 'failed') this.#scheduleRetry(entry);
    return result;
  }

  /**
   * Tries a server that failed again now, instead of at its next background retry (e.g. after a
   * person logged in to it). Resolves when it is ready or failed again; false when the server is
   * unknown, disabled, or not failed.
   */
  async retryServer(name: string): Promise<boolean> {
    const entry = this.#entries.get(name);
    if (entry === undefined || entry.connection === undefined || entry.state !== 'failed' || this.#closing !== undefined) return false;
    if (entry.retryTimer !== undefined) clearTimeout(entry.retryTimer);
    entry.retryTimer = undefined;
    entry.retryAttempt = 0;
    this.#setEntryState(entry, 'connecting');
    await this.#start(entry, true);
    return true;
  }

  /**
   * Starts an enabled server that was left out by `autoStart` (or retries a failed one now).
   * Resolves when it is ready or failed; false when the server is unknown, disabled, or already up
   * or starting.
   */
  async startServer(name: string): Promise<boolean> {
    const entry = this.#entries.get(name);
    if (entry?.state === 'failed') return this.retryServer(name);
    if (entry === undefined || entry.connection === undefined || entry.state !== 'closed' || entry.starting !== undefined || this.#closing !== undefined) return false;
    this.#setEntryState(entry, 'connecting');
    await this.#start(entry, true);
    return true;
  }

  /**
   * Whose a tool name is, even while its server is not up (named from its last known list): the
   * server, the tool's name there, and whether it is offered now.
   */
  ownerOf(name: string): { server: string; originalName: string; offered: boolean } | undefined {
    const owner = this.#tools.owner(name);
    return owner === undefined ? undefined : { server: owner.server, originalName: owner.originalName, offered: !owner.offline };
  }

  /** Takes a removed or replaced server out of service: it finishes its running calls, then closes. */
  #retire(entry: ServerEntry, removed: boolean): void {
    entry.retired = true;
    if (entry.retryTimer !== undefined) clearTimeout(entry.retryTimer);
    entry.retryTimer = undefined;
    entry.listTimers.cancelAll();
    if (removed) this.#setEntryState(entry, 'closed');
    this.#retiringEntries.add(entry);
    const retiring = (async () => {
      if (entry.running > 0 && this.#closing === undefined) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.#options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS);
          timer.unref();
          entry.idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
      this.#retiringEntries.delete(entry);
      if (removed && !this.#entries.has(entry.spec.name)) this.#stats.forget(entry.spec.name);
      await entry.starting?.catch(() => {});
      await entry.connection?.close();
    })().catch((error: unknown) => this.#logger.warn('closing a removed server failed', { server: entry.spec.name, error: String(error) }));
    this.#retiring.add(retiring);
    void retiring.finally(() => this.#retiring.delete(retiring));
  }

  /** Connects one server and lists what it offers; on failure records the error and schedules a retry. */
  #start(entry: ServerEntry, announce: boolean): Promise<void> {
    entry.starting ??= this.#startOnce(entry, announce).finally(() => (entry.starting = undefined));
    return entry.starting;
  }

  async #startOnce(entry: ServerEntry, announce: boolean): Promise<void> {
    const spec = entry.spec;
    const connection = entry.connection;
    if (connection === undefined) return;
    const started = Date.now();
    try {
      await connection.connect();
      // Listing shares the start's deadline, which runs from the spawn (not from the wait for a slot).
      const timing = connection.lastStart;
      const remaining = Math.max(1_000, (timing?.deadlineMs ?? spec.startupTimeoutMs) - (timing?.handshakeMs ?? Date.now() - started));
      // A retry or a replacement is a new session: it hears of subscribed resources only if asked again.
      await Promise.all([this.#listAll(entry, connection, remaining), this.#subscriptions.resend(spec.name, connection, remaining)]);
      if (entry.retired) return;
      const queuedMs = timing?.queuedMs ?? 0;
      entry.startTiming = { startMs: Date.now() - started - queuedMs, queuedMs };
      this.#logger.info('server ready', { server: spec.name, startMs: entry.startTiming.startMs, queuedMs, tools: entry.tools.length });
      entry.lastError = undefined;
      entry.retryAttempt = 0;
      this.#setEntryState(entry, 'ready');
      if (announce) this.#rebuild('server-up', spec.name);
    } catch (error) {
      if (this.#closing !== undefined || entry.retired) return;
      const failure = isSwitchboardError(error) ? error : new SwitchboardError(ErrorCode.ServerStartFailed, String(error), { server: spec.name, cause: error });
      entry.lastError = failure;
      this.#setEntryState(entry, 'failed', failure);
      this.#logger.warn('server failed to start', { server: spec.name, code: failure.code, error: failure.message });
      this.#scheduleRetry(entry);
    }
  }

  async #listAll(entry: ServerEntry, connection: ServerConnection, timeoutMs: number): Promise<void> {
    const [tools, prompts, resources, resourceTemplates] = await Promise.all([
      connection.listTools({ timeoutMs }),
      connection.listPrompts({ timeoutMs }).catch((error: unknown) => this.#optionalListFailed(entry, 'prompts', error)),
      connection.listResources({ timeoutMs }).catch((error: unknown) => this.#optionalListFailed(entry, 'resources', error)),
      connection.listResourceTemplates({ timeoutMs }).catch((error: unknown) => this.#optionalListFailed(entry, 'resource templates', error)),
    ]);
    entry.tools = tools;
    this.#remember(entry);
    entry.prompts = prompts as PromptDefinition[];
    entry.resources = resources as ResourceDefinition[];
    entry.resourceTemplates = resourceTemplates as ResourceTemplateDefinition[];
  }

  /** The server's tools as listed are now its last known ones (and are written to the catalog cache). */
  #remember(entry: ServerEntry): void {
    entry.knownTools = entry.tools;
    if (this.#catalogStore !== undefined && !entry.retired) void this.#catalogStore.save(entry.spec, entry.tools.map((tool) => tool.name));
  }

  #optionalListFailed(entry: ServerEntry, what: string, error: unknown): never[] {
    logOptionalListFailure(this.#logger, entry.spec.name, what, error);
    return [];
  }

  #wire(entry: ServerEntry, connection: ServerConnection): void {
    const server = entry.spec.name;
    connection.on('list-changed', ({ kind }) => this.#onListChanged(entry, connection, kind));
    connection.on('resource-updated', ({ uri }) => {
      this.#reads.invalidate(server, uri);
      this.emit('resources-changed', { server, uri });
    });
    connection.on('log', ({ level, logger, data }) => this.emit('server-log', { server, level, ...(logger === undefined ? {} : { logger }), data, source: 'mcp' }));
    connection.on('stderr', ({ line }) => this.emit('server-log', { server, level: 'info', data: line, source: 'stderr' }));
    connection.on('state-change', ({ to, error }) => {
      // During a start the entry's state covers listing too; #startOnce sets it.
      if (entry.starting !== undefined || this.#closing !== undefined || entry.retired) return;
      if (to === 'degraded' || to === 'reconnecting') {
        if (error !== undefined) entry.lastError = error;
        this.#setEntryState(entry, to, error);
      } else if (to === 'ready' && entry.state === 'degraded') {
        this.#setEntryState(entry, 'ready');
      } else if (to === 'failed' && entry.state !== 'failed') {
        entry.lastError = error ?? entry.lastError;
        this.#setEntryState(entry, 'failed', error);
        this.#cache.invalidate(server);
        this.#rebuild('server-down', server);
        // Without a restart policy nothing probes the server: the client retries it.
        if (entry.spec.restart === false) this.#scheduleRetry(entry);
      }
    });
    connection.on('reconnected', () => {
      if (this.#closing !== undefined || entry.starting !== undefined || entry.retired) return;
      this.#stats.restarted(server);
      void this.#afterReconnect(entry, connection);
    });
  }

  /** A server came back: its tool list may differ, and cached results may be stale. */
  async #afterReconnect(entry: ServerEntry, connection: ServerConnection): Promise<void> {
    this.#cache.invalidate(entry.spec.name);
    try {
      await Promise.all([this.#listAll(entry, connection, entry.spec.startupTimeoutMs), this.#subscriptions.resend(entry.spec.name, connection, entry.spec.startupTimeoutMs)]);
    } catch (error) {
      const ended = this.#closing !== undefined || entry.retired;
      this.#logger[ended ? 'debug' : 'warn']('re-listing after reconnect failed; keeping the previous lists', { server: entry.spec.name, error: String(error) });
    }
    if (this.#closing !== undefined || entry.retired) return;
    entry.lastError = undefined;
    this.#setEntryState(entry, 'ready');
    this.#rebuild('server-up', entry.spec.name);
  }

  #onListChanged(entry: ServerEntry, connection: ServerConnection, kind: 'tools' | 'prompts' | 'resources'): void {
    if (connection !== entry.connection || entry.retired) return;
    entry.listTimers.trigger(kind, () => void this.#refreshList(entry, connection, kind));
  }

  async #refreshList(entry: ServerEntry, connection: ServerConnection, kind: 'tools' | 'prompts' | 'resources'): Promise<void> {
    if (connection !== entry.connection || this.#closing !== undefined || entry.retired) return;
    try {
      if (kind === 'tools') {
        entry.tools = await connection.listTools();
        this.#remember(entry);
      } else if (kind === 'prompts') entry.prompts = await connection.listPrompts();
      else {
        entry.resources = await connection.listResources();
        entry.resourceTemplates = await connection.listResourceTemplates();
      }
    } catch (error) {
      // Closing (or replacing) the connection ends the re-list: that is no failure worth a warning.
      const ended = connection !== entry.connection || this.#closing !== undefined || entry.retired;
      this.#logger[ended ? 'debug' : 'warn'](`re-listing ${kind} after list_changed failed`, { server: entry.spec.name, error: String(error) });
      return;
    }
    if (connection !== entry.connection || this.#closing !== undefined || entry.retired) return;
    this.#cache.invalidate(entry.spec.name);
    this.#rebuild('list-changed', entry.spec.name, true, kind);
  }

  #scheduleRetry(entry: ServerEntry): void {
    if (!this.#started || entry.connection === undefined || this.#options.retryFailedServers === false || this.#closing !== undefined || entry.retired || entry.retryTimer !== undefined) return;
    const base = this.#options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    const max = this.#options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS;
    const delay = Math.min(max, base * 2 ** entry.retryAttempt) * (0.8 + Math.random() * 0.4);
    entry.retryAttempt++;
    entry.retryTimer = setTimeout(() => {
      entry.retryTimer = undefined;
      if (this.#closing !== undefined || entry.retired) return;
      this.#setEntryState(entry, 'connecting');
      void this.#start(entry, true);
    }, delay);
    entry.retryTimer.unref();
  }

  /** Rebuilds the catalogs from every ready server; emits what changed. */
  #rebuild(reason: ToolsChangedReason, server: string | undefined, announce = true, kind: 'tools' | 'prompts' | 'resources' | 'all' = 'all'): void {
    if (!announce) {
      this.#rebuildCatalogs(reason, server, announce, kind);
      return;
    }
    try {
      this.#rebuildCatalogs(reason, server, announce, kind);
    } catch (error) {
      // A change at run time that breaks `naming: none` keeps the previous catalog rather than none.
      this.#logger.error('the tool catalog could not be rebuilt; keeping the previous one', { server, error: error instanceof Error ? error.message : String(error) });
    }
  }

  #rebuildCatalogs(reason: ToolsChangedReason, server: string | undefined, announce: boolean, kind: 'tools' | 'prompts' | 'resources' | 'all'): void {
    const ready = [...this.#entries.values()].filter((entry) => isUp(entry.state));
    if (kind === 'all' || kind === 'tools') {
      const previous = this.#tools;
      // Every enabled server takes part, up or not, so names never depend on which ones are up.
      const { sources, pending } = toolSources([...this.#entries.values()].map((entry) => ({ spec: entry.spec, live: isUp(entry.state), tools: entry.tools, knownTools: entry.knownTools })));
      this.#tools = RoutedCatalog.build(sources, this.#config.naming, toCatalogTool, previous, 'tool', { pending });
      // Remember names whose server went down, so calling one says so instead of "no such tool".
      if (ready.length < this.#enabledCount) {
        for (const tool of previous.entries) {
          const state = this.#entries.get(tool.server)?.state;
          if (state !== undefined && this.#tools.route(tool.name) === undefined && state !== 'ready' && state !== 'degraded' && state !== 'reconnecting') this.#unavailable.set(tool.name, tool.server);
        }
      }
      if (this.#unavailable.size > 0) for (const tool of this.#tools.entries) this.#unavailable.delete(tool.name);
      if (announce && this.listenerCount('tools-changed') > 0) {
        this.emit('tools-changed', { ...this.#tools.diffFrom(previous), version: this.#tools.version, reason, ...(server === undefined ? {} : { server }) });
      }
    }
    if (kind === 'all' || kind === 'prompts') {
      const previous = this.#prompts;
      this.#prompts = RoutedCatalog.build(
        ready.map((entry) => ({ server: entry.spec.name, prefix: entry.spec.prefix ?? entry.spec.name, items: entry.prompts })),
        this.#config.naming === 'none' ? 'on-conflict' : this.#config.naming,
        toCatalogPrompt,
        previous,
        'prompt',
      );
      if (announce && kind === 'prompts' && this.listenerCount('prompts-changed') > 0) this.emit('prompts-changed', { ...this.#prompts.diffFrom(previous), version: this.#prompts.version, ...(server === undefined ? {} : { server }) });
    }
    if (kind === 'all' || kind === 'resources') {
      this.#rebuildResources(ready);
      if (announce && kind === 'resources' && server !== undefined) this.emit('resources-changed', { server });
    }
  }

  #rebuildResources(ready: ServerEntry[]): void {
    const serversByUri = new Map<string, string[]>();
    for (const entry of ready) {
      for (const resource of entry.resources) serversByUri.set(resource.uri, [...(serversByUri.get(resource.uri) ?? []), entry.spec.name]);
    }
    const resources = new Map<string, CatalogResource>();
    this.#resourceCollisions = [];
    for (const [uri, servers] of serversByUri) if (new Set(servers).size > 1) this.#resourceCollisions.push({ uri, servers: [...new Set(servers)] });
    for (const entry of ready) {
      for (const resource of entry.resources) {
        const clash = new Set(serversByUri.get(resource.uri)).size > 1;
        const uri = clash ? `switchboard://${encodeURIComponent(entry.spec.name)}/${encodeURIComponent(resource.uri)}` : resource.uri;
        resources.set(uri, {
          uri,
          server: entry.spec.name,
          originalUri: resource.uri,
          name: resource.name,
          ...(resource.title === undefined ? {} : { title: resource.title }),
          ...(resource.description === undefined ? {} : { description: resource.description }),
          ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
          ...(resource.size === undefined ? {} : { size: resource.size }),
          ...catalogExtras(resource),
        });
      }
    }
    this.#resources = resources;
  }

  #setEntryState(entry: ServerEntry, to: ServerState, error?: SwitchboardError): void {
    const from = entry.state;
    if (from === to) return;
    entry.state = to;
    this.emit('server-state-change', { server: entry.spec.name, from, to, ...(error === undefined ? {} : { error }) });
  }

  /** Tasks of this client's tools: start a call as a task, poll, wait, fetch the result, cancel. */
  get tasks(): ToolTasks {
    this.#tasks ??= new ToolTasks(this);
    return this.#tasks;
  }

  /** The version of the tool catalog; bumps on every change. */
  get catalogVersion(): number {
    return this.#tools.version;
  }

  /** Every tool of every ready server, under its exposed name. Cached: no `tools/list` per call. */
  listTools(): CatalogTool[] {
    return [...this.#tools.entries];
  }

  /** The tool an exposed name routes to (also a name given out before a rename). */
  getTool(name: string): CatalogTool | undefined {
    return this.#tools.route(name);
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
    const tool = this.#tools.route(name);
    if (tool === undefined || (options.server !== undefined && tool.server !== options.server)) return this.#refuse(this.#unknownTool(name, options.server), name);
    if (this.#options.validateArguments !== false) {
      // Synchronous for valid arguments of simple schemas and once a schema is compiled.
      const checked = this.#validator.validate(tool.inputSchema, args);
      if (!Array.isArray(checked)) return checked.then((problems) => (problems.length > 0 ? this.#refuse(invalidArguments(tool, problems), name, tool) : this.#callRouted(tool, args, options)));
      if (checked.length > 0) return this.#refuse(invalidArguments(tool, checked), name, tool);
    }
    return this.#callRouted(tool, args, options);
  }

  /** Rejects with a refusal (nothing was sent), counted in the stats and told as `tool-call-refused`. */
  #refuse(error: SwitchboardError, name: string, tool?: CatalogTool): Promise<never> {
    const refusal = refusalOf(error, tool, tool === undefined ? this.#tools.owner(name) : undefined);
    this.#stats.callRefused(refusal);
    if (this.listenerCount('tool-call-refused') > 0) this.emit('tool-call-refused', refusedCallEvent(++this.#nextCallId, tool?.name ?? name, refusal));
    return Promise.reject(error);
  }

  /**
   * The call once routed and checked. Not `async`, and one promise derived per call: the per-call
   * path is what the benchmark's CPU/call measures, and each `async` layer costs promises and
   * microtask turns.
   */
  #callRouted(tool: CatalogTool, args: Record<string, unknown>, options: CallOptions): Promise<ToolResult> {
    const entry = this.#entries.get(tool.server);
    const server = tool.server;
    const callId = ++this.#nextCallId;
    const started = performance.now();
    this.#stats.callStarted(server, tool.originalName);
    const span = startToolSpan(tool.name, server, tool.originalName, options.traceContext);
    if (this.listenerCount('tool-call-start') > 0) this.emit('tool-call-start', { callId, name: tool.name, server, originalName: tool.originalName });
    const finish = (outcome: { ok: boolean; isError: boolean; errorCode?: string; cached?: boolean }): void => {
      const durationMs = performance.now() - started;
      this.#stats.callEnded({ server, tool: tool.originalName, durationMs, ...outcome });
      endToolSpan(span, outcome);
      if (this.listenerCount('tool-call-end') > 0) this.emit('tool-call-end', { callId, name: tool.name, server, originalName: tool.originalName, durationMs, ...outcome });
    };
    const failure = (error: unknown): SwitchboardError => {
      const described = describeCallFailure(error, tool, options.timeoutMs);
      finish({ ok: false, isError: false, errorCode: described.code });
      return described;
    };
    try {
      const connection = entry?.connection;
      if (entry === undefined || connection === undefined) throw new SwitchboardError(ErrorCode.ServerNotFound, `server "${server}" is not configured`, { server });
      const cachePolicy = this.#cachePolicyFor(entry, tool);
      const key = cachePolicy === undefined ? undefined : ResultCache.key(tool.originalName, args);
      if (cachePolicy !== undefined && key !== undefined) {
        const cached = this.#cache.get(server, key);
        this.#stats.cacheLookup(server, tool.originalName, cached !== undefined);
        if (cached !== undefined) {
          finish({ ok: true, isError: false, cached: true });
          return Promise.resolve(cached);
        }
      }
      // A tool that may write makes this server's cached results stale, before and after it runs.
      const caching = entry.spec.cache !== undefined;
      const writes = caching && cachePolicy === undefined && mayWrite(tool);
      if (writes) this.#cache.invalidate(server);
      const generation = caching ? this.#cache.generation(server) : 0;
      const callOptions = withTraceMeta(this.#callOptions(options, callId, tool), span);
      entry.running++;
      const succeeded = (result: ToolResult): ToolResult => {
        callDone(entry);
        if (writes) this.#cache.invalidate(server);
        if (cachePolicy !== undefined && key !== undefined) this.#cache.set(server, key, result, cachePolicy, generation);
        finish({ ok: !result.isError, isError: result.isError });
        return result;
      };
      // A tool that requires a task runs as one; the caller sees an ordinary call.
      const sent = taskSupportOf(tool) === 'required' ? callAsTask(connection, tool.originalName, args, callOptions) : connection.callTool(tool.originalName, args, callOptions);
      const mode = entry.spec.validateOutput;
      return (this.#outputCheck.applies(tool, mode) ? sent.then((result) => this.#outputCheck.check(tool, result, mode)) : sent).then(succeeded, (error: unknown) =>
        this.#retry(error, entry, connection, tool, args, options, callOptions, started).then(succeeded, (final: unknown) => {
          callDone(entry);
          if (writes) this.#cache.invalidate(server);
          throw failure(final);
        }),
      );
    } catch (error) {
      return Promise.reject(failure(error));
    }
  }

  /**
   * After a failed first attempt: retries only when it is safe — the request provably never reached
   * the server, or the tool says it is read-only or idempotent. A tool that may write is never sent
   * twice. Retries share the call's deadline. Rejects with the last error otherwise.
   */
  async #retry(firstError: unknown, entry: ServerEntry, connection: ServerConnection, tool: CatalogTool, args: Record<string, unknown>, options: CallOptions, callOptions: CallOptions, started: number): Promise<ToolResult> {
    const policy = entry.spec.retry === false ? undefined : (entry.spec.retry ?? DEFAULT_RETRY_POLICY);
    if (policy === undefined || policy.attempts < 2 || !isSafeToRetry(firstError, tool, policy)) throw firstError;
    const deadline = started + (options.timeoutMs ?? entry.spec.callTimeoutMs);
    let error: unknown = firstError;
    for (let attempt = 2; attempt <= policy.attempts; attempt++) {
      const remaining = deadline - performance.now();
      if (remaining <= 0 || options.signal?.aborted === true || !isSafeToRetry(error, tool, policy)) break;
      this.#stats.retried(tool.server, tool.originalName);
      this.#logger.info('retrying a call that is safe to repeat', { server: tool.server, tool: tool.originalName, attempt, error: isSwitchboardError(error) ? error.code : String(error) });
      await abortableDelay(Math.min(remaining, backoffDelay(attempt - 2, { initialMs: policy.backoffMs, maxMs: policy.maxBackoffMs })), options.signal);
      try {
        const result = await connection.callTool(tool.originalName, args, { ...callOptions, timeoutMs: Math.max(1, deadline - performance.now()) });
        return await this.#outputCheck.check(tool, result, entry.spec.validateOutput);
      } catch (retryError) {
        error = retryError;
      }
    }
    throw error;
  }

  /**
   * The options for the connection. Progress is asked of the server only when the caller or a
   * `tool-progress` listener wants it (a progress token changes the request the server sees).
   */
  #callOptions(options: CallOptions, callId: number, tool: CatalogTool): CallOptions {
    const onProgress = options.onProgress;
    if (onProgress === undefined && this.listenerCount('tool-progress') === 0) return options;
    return {
      ...options,
      onProgress: (progress: ProgressUpdate) => {
        this.emit('tool-progress', { callId, name: tool.name, server: tool.server, ...progress });
        onProgress?.(progress);
      },
    };
  }

  #cachePolicyFor(entry: ServerEntry, tool: CatalogTool): CachePolicy | undefined {
    const policy = entry.spec.cache;
    if (policy === undefined) return undefined;
    if (policy.tools === undefined) return policy;
    if (entry.cacheMatcher?.(tool.originalName) === true) return policy;
    if (policy.readOnly && tool.annotations?.readOnlyHint === true) return policy;
    return undefined;
  }

  /** Per-server and per-tool counters, latency percentiles and timelines. */
  stats(): ClientStats {
    return this.#stats.snapshot(new Map([...this.#entries].filter(([, entry]) => entry.spec.enabled).map(([name, entry]) => [name, entry.state])));
  }

  /**
   * Prometheus metrics of this client in a `prom-client` registry (created on first call; pass the
   * gateway's registry and labels to share one). Calls are counted from then on; totals before are
   * seeded.
   */
  prometheusRegistry(options: PrometheusOptions = {}): Promise<Registry> {
    this.#prometheus ??= attachPrometheus(this.#stats, () => this.stats(), options);
    return this.#prometheus.then(({ registry }) => registry);
  }

  /** The Prometheus text exposition of this client's metrics. */
  async toPrometheus(): Promise<string> {
    return (await this.prometheusRegistry()).metrics();
  }

  #unknownTool(name: string, server?: string): SwitchboardError {
    const servers = new Map<string, ServerFacts>();
    for (const entry of this.#entries.values()) {
      servers.set(entry.spec.name, { name: entry.spec.name, prefix: entry.spec.prefix ?? entry.spec.name, enabled: entry.spec.enabled, state: entry.state, lastError: entry.lastError });
    }
    return unknownToolError(name, { owner: (candidate) => this.#tools.owner(candidate), tools: this.#tools.entries, servers }, server, this.#unavailable.get(name));
  }

  /** Every prompt of every ready server, named like tools. */
  listPrompts(): CatalogPrompt[] {
    return [...this.#prompts.entries];
  }

  /** Gets a prompt by its exposed name. */
  async getPrompt(name: string, args: Record<string, string> = {}, options: CallOptions = {}): Promise<GetPromptResult> {
    const prompt = this.#prompts.route(name);
    if (prompt === undefined) throw new SwitchboardError(ErrorCode.InvalidArgument, `There is no prompt named "${name}".`, { details: { prompt: name } });
    return this.#connectionOf(prompt.server).getPrompt(prompt.originalName, args, options);
  }

  /** Every resource of every ready server; URIs are unique (rewritten only when two servers share one). */
  listResources(): CatalogResource[] {
    return [...this.#resources.values()];
  }

  /** Every resource template, with its server. */
  listResourceTemplates(): CatalogResourceTemplate[] {
    return [...this.#entries.values()]
      .filter((entry) => entry.state === 'ready')
      .flatMap((entry) => entry.resourceTemplates.map((template) => ({ ...withSafeIcons(template), server: entry.spec.name })));
  }

  /**
   * Reads a resource by its URI (as listed, or one expanded from a template). When several servers
   * could serve it, pass `server`.
   */
  async readResource(uri: string, options: CallOptions & { server?: string } = {}): Promise<ReadResourceResult> {
    const resource = await this.#resourceOf(uri, options.server);
    const connection = this.#connectionOf(resource.server);
    const spec = this.#entries.get(resource.server)?.spec;
    const read = (): Promise<ReadResourceResult> => connection.readResource(resource.uri, options);
    return spec === undefined ? read() : this.#reads.read(spec, resource.uri, read);
  }

  /**
   * Subscribes to updates of a resource (found like {@link readResource}'s): `resources-changed`
   * events with its `uri` follow, the URI as its server names it. Counted per call, each ended by
   * one {@link unsubscribeResource}; sent again whenever the server comes back (restart, reconnect,
   * new HTTP session, reconfiguration). Resolves with the server and its URI.
   */
  async subscribeResource(uri: string, options: { server?: string; signal?: AbortSignal } = {}): Promise<SubscribedResource> {
    const resource = await this.#resourceOf(uri, options.server);
    await this.#subscriptions.add(resource, this.#connectionOf(resource.server), options.signal === undefined ? {} : { signal: options.signal });
    return resource;
  }

  /** Ends one {@link subscribeResource}; the last one unsubscribes at the server. False when it was not subscribed. */
  unsubscribeResource(uri: string, options: { server?: string } = {}): Promise<boolean> {
    const listed = this.#resources.get(uri);
    const resource = listed !== undefined && (options.server === undefined || options.server === listed.server) ? { server: listed.server, uri: listed.originalUri } : this.#subscriptions.find(uri, options.server);
    const entry = resource === undefined ? undefined : this.#entries.get(resource.server);
    return resource === undefined ? Promise.resolve(false) : this.#subscriptions.remove(resource, entry !== undefined && isUp(entry.state) ? entry.connection : undefined);
  }

  /** The resources subscribed to now, with their subscriber counts (to carry them over to a client that replaces this one). */
  resourceSubscriptions(): Array<SubscribedResource & { subscribers: number }> {
    return this.#subscriptions.list();
  }

  /** The server of a resource URI and the URI as that server names it. */
  async #resourceOf(uri: string, server: string | undefined): Promise<SubscribedResource> {
    const listed = this.#resources.get(uri);
    if (listed !== undefined && (server === undefined || server === listed.server)) return { server: listed.server, uri: listed.originalUri };
    if (server !== undefined) return { server, uri };
    const owners = uiResourceServers(this.#tools.entries, uri);
    const candidates = owners.length > 0 ? owners : await this.#serversForUri(uri);
    if (candidates.length === 1 && candidates[0] !== undefined) return { server: candidates[0], uri };
    throw new SwitchboardError(
      ErrorCode.InvalidArgument,
      candidates.length === 0
        ? `No server offers a resource at "${uri}".`
        : `Several servers may serve "${uri}" (${candidates.join(', ')}); pass \`server\` to choose one.`,
      { details: { uri, candidates } },
    );
  }

  async #serversForUri(uri: string): Promise<string[]> {
    const { UriTemplate } = await import('@modelcontextprotocol/client');
    const ready = [...this.#entries.values()].filter((entry) => entry.state === 'ready');
    const matching = ready.filter((entry) => entry.resourceTemplates.some((template) => new UriTemplate(template.uriTemplate).match(uri) !== null));
    if (matching.length > 0) return matching.map((entry) => entry.spec.name);
    const withResources = ready.filter((entry) => entry.connection?.capabilities?.resources !== undefined);
    return withResources.length === 1 ? withResources.map((entry) => entry.spec.name) : [];
  }

  #connectionOf(server: string): ServerConnection {
    const entry = this.#entries.get(server);
    if (entry === undefined) throw new SwitchboardError(ErrorCode.ServerNotFound, `There is no server named "${server}".`, { server });
    if (entry.connection === undefined || (entry.state !== 'ready' && entry.state !== 'degraded' && entry.state !== 'reconnecting')) {
      throw entry.lastError ?? new SwitchboardError(ErrorCode.ServerDisconnected, `server "${server}" is not connected (${entry.state})`, { server });
    }
    return entry.connection;
  }

  /** A server's instructions from its handshake, while it is up. */
  instructions(server: string): string | undefined {
    const entry = this.#entries.get(server);
    return entry !== undefined && isUp(entry.state) ? entry.connection?.instructions : undefined;
  }

  /** Sends `completion/complete` to a server (its `ref` as that server names it); resolves with the server's answer as sent. */
  async complete(server: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<unknown> {
    return this.#connectionOf(server).request('completion/complete', params, options);
  }

  /** The live connection of a server (for protocol features this class does not wrap). */
  connection(server: string): ServerConnection | undefined {
    return this.#entries.get(server)?.connection;
  }

  /** Per-server state, protocol version and last error. */
  status(): ServerStatus[] {
    return [...this.#entries.values()].map((entry) => {
      const connection = entry.connection;
      const error = entry.lastError;
      const stderr = error?.details.stderr;
      return {
        name: entry.spec.name,
        state: entry.state,
        enabled: entry.spec.enabled,
        ...(connection?.transportKind === undefined ? {} : { transport: connection.transportKind }),
        ...(connection?.protocolVersion === undefined ? {} : { protocolVersion: connection.protocolVersion }),
        ...(connection?.serverInfo === undefined ? {} : { serverInfo: withSafeIcons(connection.serverInfo) }),
        toolCount: entry.state === 'ready' || entry.state === 'degraded' || entry.state === 'reconnecting' ? this.#tools.countOf(entry.spec.name) : 0,
        restarts: connection?.restarts ?? 0,
        ...(entry.state === 'ready' && connection?.readyAt !== undefined ? { readyAt: connection.readyAt } : {}),
        ...(connection?.pid === undefined ? {} : { pid: connection.pid }),
        ...(entry.startTiming ?? {}),
        ...(error === undefined || entry.state === 'ready'
          ? {}
          : {
              error: {
                code: error.code,
                message: error.message,
                ...(error.hint === undefined ? {} : { hint: error.hint }),
                ...(typeof stderr === 'string' && stderr !== '' ? { stderr } : {}),
              },
            }),
      };
    });
  }

  /** Every rename and collision of the current catalogs. */
  catalogReport(): { tools: NameReport; prompts: NameReport; resources: { collisions: Array<{ uri: string; servers: string[] }> } } {
    return { tools: this.#tools.report, prompts: this.#prompts.report, resources: { collisions: this.#resourceCollisions } };
  }

  /** Closes every connection and ends every server process. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const entries = [...this.#entries.values()];
      for (const entry of entries) {
        if (entry.retryTimer !== undefined) clearTimeout(entry.retryTimer);
        entry.retryTimer = undefined;
        entry.listTimers.cancelAll();
      }
      // Removed servers still finishing their calls close now too.
      for (const entry of this.#retiringEntries) entry.idle?.();
      try {
        await Promise.all([
          ...entries.map(async (entry) => {
            await entry.starting?.catch(() => {});
            await entry.connection?.close();
          }),
          ...this.#retiring,
        ]);
        await this.#catalogStore?.flush();
      } finally {
        for (const entry of entries) this.#setEntryState(entry, 'closed');
        this.removeAllListeners();
        this.#cache.clear();
        this.#prometheus?.then(({ detach }) => detach()).catch(() => {});
      }
    })();
    return this.#closing;
  }
}

function callDone(entry: ServerEntry): void {
  entry.running--;
  if (entry.running === 0) entry.idle?.();
}

function isUp(state: ServerState): boolean {
  return state === 'ready' || state === 'degraded' || state === 'reconnecting';
}

async function openCatalogStore(options: MultiServerClientOptions): Promise<CatalogStore | undefined> {
  if (options.catalogCache === undefined || options.catalogCache === false) return undefined;
  if (typeof options.catalogCache !== 'string') return options.catalogCache;
  const { FileCatalogStore } = await import('./catalog-store.js');
  return new FileCatalogStore(options.catalogCache, options.logger ?? noopLogger);
}

function isNormalized(config: ConfigInput): config is SwitchboardConfig {
  return Array.isArray((config as { servers?: unknown }).servers);
}

function toCatalogTool(named: { name: string; server: string; originalName: string; item: ToolDefinition }): CatalogTool {
  const tool = named.item;
  // Plain assignments rather than conditional spreads: this runs for every tool on every re-list.
  const entry: CatalogTool = {
    name: named.name,
    server: named.server,
    originalName: named.originalName,
    description: tool.description === undefined || tool.description === '' ? `[${named.server}]` : `[${named.server}] ${tool.description}`,
    inputSchema: tool.inputSchema,
  };
  if (tool.title !== undefined) entry.title = tool.title;
  if (tool.outputSchema !== undefined) entry.outputSchema = tool.outputSchema;
  if (tool.annotations !== undefined) entry.annotations = tool.annotations;
  Object.assign(entry, catalogExtras(tool));
  return entry;
}

function toCatalogPrompt(named: { name: string; server: string; originalName: string; item: PromptDefinition }): CatalogPrompt {
  const prompt = named.item;
  return {
    name: named.name,
    server: named.server,
    originalName: named.originalName,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    ...(prompt.arguments === undefined ? {} : { arguments: prompt.arguments }),
    ...catalogExtras(prompt),
  };
}

/** True unless the server says the tool only reads. */
function invalidArguments(tool: CatalogTool, problems: ArgumentProblem[]): SwitchboardError {
  return new SwitchboardError(
    ErrorCode.InvalidArgument,
    `Tool "${tool.name}" on server "${tool.server}" was not called: invalid arguments: ${formatArgumentProblems(problems)}. Fix the arguments and call again.`,
    { server: tool.server, details: { tool: tool.name, problems, retryable: false } },
  );
}

function mayWrite(tool: CatalogTool): boolean {
  return tool.annotations?.readOnlyHint !== true;
}

/** A retry is safe when the request never reached the server, or the tool does not write (or is idempotent). */
function isSafeToRetry(error: unknown, tool: CatalogTool, policy: RetryPolicy): boolean {
  if (!isSwitchboardError(error)) return false;
  if (error.details.notSent === true) return true;
  const repeatable = tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
  if (!repeatable) return false;
  switch (error.code) {
    case ErrorCode.ServerDisconnected:
      return true;
    case ErrorCode.RequestTimeout:
      return policy.onTimeout;
    case ErrorCode.ServerHttpError: {
      const status = error.details.status;
      return typeof status === 'number' && (status >= 500 || status === 429 || status === 408);
    }
    default:
      return false;
  }
}

function abortableDelay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new SwitchboardError(ErrorCode.RequestCancelled, 'cancelled while waiting to retry'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
