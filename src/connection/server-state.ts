/**
 * @module connection/server-state
 * The states of a server connection, everywhere they are shown (`tools --json`, `status()`, events,
 * dashboard).
 */

/** `connecting → ready → degraded → reconnecting → failed → closed`. */
export const SERVER_STATES = ['connecting', 'ready', 'degraded', 'reconnecting', 'failed', 'closed'] as const;
/** One of {@link SERVER_STATES}. */
export type ServerState = (typeof SERVER_STATES)[number];
