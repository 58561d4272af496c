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
/**
 * A 2025-era session with no request and no open stream this long is closed. @default 300000 (5 minutes)
 * Short because an idle session costs memory and a place under {@link DEFAULT_MAX_SESSIONS_PER_USER},
 * while closing it costs its client one `initialize`: a client that comes back gets 404 and, as the
 * spec requires, opens a new session. A client that keeps its GET stream open is never idle.
 */
export const DEFAULT_SESSION_IDLE_TTL_MS = 5 * 60_000;
/** 2025-era sessions one user may hold open at once. @default 100 */
export const DEFAULT_MAX_SESSIONS_PER_USER = 100;
/** 2025-era sessions open at once, all users together (~17 KB of memory each). @default 5000 */
export const DEFAULT_MAX_SESSIONS = 5_000;
/** `/api/events` streams one user may hold open at once (a dashboard tab holds one). @default 10 */
export const DEFAULT_MAX_EVENT_STREAMS_PER_USER = 10;
/** `/api/events` streams open at once, all users together (a socket each). @default 1000 */
export const DEFAULT_MAX_EVENT_STREAMS = 1_000;
/**
 * 2026-07-28 `subscriptions/listen` streams one user may hold open at once: a 2026 client holds one
 * where a 2025 client holds a session and its GET stream, so the caps match the sessions'. @default 100
 */
export const DEFAULT_MAX_LISTEN_STREAMS_PER_USER = 100;
/** `subscriptions/listen` streams open at once, all users together (a socket each). @default 5000 */
export const DEFAULT_MAX_LISTEN_STREAMS = 5_000;
/**
 * TCP connections the gateway accepts at once; more are dropped on arrival. Keep it below the
 * file-descriptor limit (`ulimit -n`), leaving room for the upstream servers' pipes and sockets.
 * @default 10000
 */
export const DEFAULT_MAX_CONNECTIONS = 10_000;
/**
 * How long a connection has to send its request headers, the token among them: a client that has
 * not authenticated by then is disconnected (slow-loris). Node's own default is 60 s. @default 10000
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** How long a client has to send a whole request, body included (Node's default: 300 s). @default 60000 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
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
