/**
 * @module gateway/gateway-defaults
 * The gateway's defaults, in one place so the CLI help, the docs and the code agree.
 */

/** Address the gateway binds: loopback only, unless told otherwise. @default '127.0.0.1' */
export const DEFAULT_HOST = '127.0.0.1';
/** @default 7410 */
export const DEFAULT_PORT = 7410;
/** Largest request body read on `/mcp` and `/api` (the MCP SDK's own bound). @default 4194304 (4 MiB) */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A 2025-era session with no request and no open stream this long is closed. @default 1800000 (30 minutes) */
export const DEFAULT_SESSION_IDLE_TTL_MS = 30 * 60_000;
/** How long a graceful shutdown lets running calls finish before cancelling them. @default 10000 */
export const DEFAULT_SHUTDOWN_DEADLINE_MS = 10_000;
/** Interval of the `: ping` comment on `/api/events`. @default 15000 */
export const EVENTS_PING_INTERVAL_MS = 15_000;
/** How long a registry edit made through the API waits for the user's servers to reconnect before answering. @default 15000 */
export const DEFAULT_REFRESH_WAIT_MS = 15_000;
/** A downstream client's answer to a forwarded elicitation or sampling request may take this long (a person answers). @default 600000 */
export const DEFAULT_FORWARDED_REQUEST_TIMEOUT_MS = 10 * 60_000;
/** Host names always allowed in `Host` and `Origin` (the loopback names). */
export const LOOPBACK_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
