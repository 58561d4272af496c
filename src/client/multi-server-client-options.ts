/**
 * @module client/multi-server-client-options
 * The options of a {@link MultiServerClient}: its own (naming, validation, caching, retries of
 * servers that failed to start, reconfiguration), and the few each connection needs, which the
 * client hands down explicitly (see `servers/connection-options.ts`) rather than as the whole bag.
 */

import type { ServerSpec, SwitchboardConfig } from '../config/server-spec.js';
import type { CallOptions, ServerConnectionOptions, ServerRequestHandler } from '../connection/server-connection.js';
import { DEFAULT_MAX_START_RETRY_DELAY_MS, DEFAULT_START_RETRY_DELAY_MS } from '../connection/lifecycle/supervisor.js';
import type { StartLimiter } from '../connection/start-limiter.js';
import type { Logger } from '../logger.js';
import type { CatalogStore } from './catalog/catalog-store.js';
import type { ReadCache } from './routing/read-cache.js';

/** Debounce of `list_changed` notifications per server. @default 100 */
export const DEFAULT_LIST_CHANGED_DEBOUNCE_MS = 100;
/** First delay before retrying a server that failed; doubles up to {@link DEFAULT_MAX_RETRY_DELAY_MS}. The connection's Supervisor retries. */
export const DEFAULT_RETRY_DELAY_MS = DEFAULT_START_RETRY_DELAY_MS;
/** Longest delay between background retries. */
export const DEFAULT_MAX_RETRY_DELAY_MS = DEFAULT_MAX_START_RETRY_DELAY_MS;

/** Options of {@link MultiServerClient.connect}. */
export interface MultiServerClientOptions {
  /** @default noopLogger */
  logger?: Logger;
  /** Sent as `clientInfo` by every connection. @default { name: 'mcp-switchboard', version } */
  clientInfo?: { name: string; version: string };
  /** Answers `elicitation/create`; the capability is declared only when given. */
  onElicitation?: ServerRequestHandler;
  /** Answers `sampling/createMessage`; the capability is declared only when given. */
  onSampling?: ServerRequestHandler;
  /** `onElicitation` shows URL-mode elicitations too (declares `elicitation.url`). */
  urlElicitation?: boolean;
  /** Extensions declared to every server (`capabilities.extensions`), e.g. MCP Apps' `io.modelcontextprotocol/ui`. */
  extensions?: ServerConnectionOptions['extensions'];
  /** Answers `roots/list`; the capability is declared only when given. */
  roots?: () => Promise<Array<{ uri: string; name?: string }>>;
  /** A fetch for HTTP servers (e.g. one that pins resolved addresses). */
  fetch?: ServerConnectionOptions['fetch'];
  /** Credentials for HTTP servers that require authorization (used as given; `oauth` is then ignored). */
  authProvider?: ServerConnectionOptions['authProvider'];
  /** OAuth for HTTP servers: the token store and how a login completes (see {@link ServerConnectionOptions.oauth}). */
  oauth?: ServerConnectionOptions['oauth'];
  /** Send requests on 2025-era connections through the lean path instead of the SDK's `request()`. @default true */
  leanRequests?: boolean;
  /** Bounds concurrent process starts; a start's deadline runs from its spawn. @default sharedStartLimiter() */
  startLimiter?: StartLimiter;
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
  /** Bound on the bytes of cached results, all servers together. @default DEFAULT_CACHE_MAX_BYTES */
  cacheMaxBytes?: number;
  /** Where `public` hinted resource reads are kept for the clients of other users too (the gateway's pool shares one). */
  sharedReadCache?: ReadCache;
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
