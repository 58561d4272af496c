/**
 * @module client/client-core
 * The state a {@link MultiServerClient} shares with its parts (servers/, catalog/, call/, routing/):
 * one object, created once, so each part is a plain function over it instead of a method of one
 * large class.
 */

import type { SwitchboardConfig } from '../config/server-spec.js';
import { StartLimiter } from '../connection/start-limiter.js';
import type { ConfigIssue } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import { StatsCollector } from '../metrics/stats-collector.js';
import { ArgumentValidator } from './call/argument-validator.js';
import { OutputCheck } from './call/output-check.js';
import { ResultCache } from './call/result-cache.js';
import type { CatalogStore } from './catalog/catalog-store.js';
import { emptyCatalogs, type ClientCatalogs } from './catalog/client-catalogs.js';
import type { ClientEventSink } from './multi-server-client-events.js';
import type { MultiServerClientOptions } from './multi-server-client-options.js';
import { CachedReads } from './routing/cached-reads.js';
import { ResourceSubscriptions } from './routing/resource-subscriptions.js';
import type { ServerSlot } from './servers/server-slot.js';

/** What the parts of a client share. */
export interface ClientCore {
  readonly options: MultiServerClientOptions;
  readonly logger: Logger;
  readonly events: ClientEventSink;
  /** One slot per configured server, in config order. */
  readonly slots: Map<string, ServerSlot>;
  readonly catalogs: ClientCatalogs;
  readonly cache: ResultCache;
  readonly stats: StatsCollector;
  readonly validator: ArgumentValidator;
  /** Structured results against the tools' outputSchema (shares the validator's compiled schemas). */
  readonly outputCheck: OutputCheck;
  /** Resource reads kept by their cache hints (`ttlMs`, `cacheScope`). */
  readonly reads: CachedReads;
  readonly subscriptions: ResourceSubscriptions;
  readonly catalogStore: CatalogStore | undefined;
  readonly startLimiter: StartLimiter | undefined;
  /** Removed or replaced servers finishing their calls before they close. */
  readonly retiring: Set<Promise<void>>;
  readonly retiringSlots: Set<ServerSlot>;
  /** The configuration in use (the latest one reconfigured to). */
  config: SwitchboardConfig;
  /** Warnings found while reading the config (unknown keys, disabled servers). */
  warnings: readonly ConfigIssue[];
  /** Set by `close()`: nothing starts, retries or re-lists from then on. */
  closing: boolean;
  /** Set once `connect()` has its answer: background retries wait for it. */
  started: boolean;
  nextCallId: number;
}

/** The shared state of a new client (no server slot yet). */
export function createClientCore(config: SwitchboardConfig, warnings: readonly ConfigIssue[], options: MultiServerClientOptions, events: ClientEventSink, catalogStore: CatalogStore | undefined): ClientCore {
  const logger = options.logger ?? noopLogger;
  const maxStarts = options.maxConcurrentStarts ?? config.maxConcurrentStarts;
  const validator = new ArgumentValidator(logger);
  const reads = new CachedReads({ ...(options.sharedReadCache === undefined ? {} : { shared: options.sharedReadCache }), ...(options.now === undefined ? {} : { now: options.now }) });
  return {
    options,
    logger,
    events,
    slots: new Map(),
    catalogs: emptyCatalogs(config.naming),
    // The result cache's invalidations (a writing tool, list_changed, reconnect) drop hinted reads too.
    cache: new ResultCache({ ...(options.cacheMaxBytes === undefined ? {} : { maxBytes: options.cacheMaxBytes }), ...(options.now === undefined ? {} : { now: options.now }), onInvalidate: (server) => reads.invalidate(server) }),
    stats: new StatsCollector(options.now),
    validator,
    outputCheck: new OutputCheck(validator, logger),
    reads,
    subscriptions: new ResourceSubscriptions(logger),
    catalogStore,
    startLimiter: options.startLimiter ?? (maxStarts === undefined ? undefined : new StartLimiter(maxStarts)),
    retiring: new Set(),
    retiringSlots: new Set(),
    config,
    warnings,
    closing: false,
    started: false,
    nextCallId: 0,
  };
}
