/**
 * @module client/servers/connection-options
 * What one server's connection is given: the few connection options the client takes on behalf of
 * its connections, named one by one (not the client's whole options bag), the start-retry policy
 * (the connection's Supervisor retries a failed start), then the per-server `connectionOptions` over them.
 */

import type { ServerSpec } from '../../config/server-spec.js';
import type { ServerConnectionOptions } from '../../connection/server-connection.js';
import type { StartLimiter } from '../../connection/start-limiter.js';
import type { Logger } from '../../logger.js';
import { DEFAULT_MAX_RETRY_DELAY_MS, DEFAULT_RETRY_DELAY_MS, type MultiServerClientOptions } from '../multi-server-client-options.js';

/** The client options handed to every connection as they are. */
const SHARED_CONNECTION_OPTIONS = ['clientInfo', 'onElicitation', 'urlElicitation', 'onSampling', 'extensions', 'roots', 'fetch', 'authProvider', 'oauth', 'leanRequests'] as const;

// A connection option the client neither passes down nor sets itself fails to compile here: add it
// to MultiServerClientOptions and to the list above (or set it below).
type Unpassed = Exclude<keyof ServerConnectionOptions, (typeof SHARED_CONNECTION_OPTIONS)[number] | 'logger' | 'startLimiter' | 'startRetry'>;
const EVERY_OPTION_PASSED: [Unpassed] extends [never] ? true : Unpassed = true;
void EVERY_OPTION_PASSED;

/**
 * The options of `spec`'s connection. Before the client has `started` (its `connect()` has its
 * answer), start retries are held, so that answer always reflects the first attempt.
 */
export function connectionOptionsFor(options: MultiServerClientOptions, spec: ServerSpec, logger: Logger, startLimiter: StartLimiter | undefined, started: boolean): ServerConnectionOptions {
  const shared: ServerConnectionOptions = { logger };
  const target = shared as Record<string, unknown>;
  for (const name of SHARED_CONNECTION_OPTIONS) if (options[name] !== undefined) target[name] = options[name];
  if (startLimiter !== undefined) shared.startLimiter = startLimiter;
  if (options.retryFailedServers !== false) {
    shared.startRetry = { delayMs: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS, maxDelayMs: options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS, armed: started };
  }
  const own = options.connectionOptions?.(spec);
  return own === undefined ? shared : { ...shared, ...own };
}
