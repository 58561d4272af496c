/**
 * @module gateway/downstream-session
 * One downstream MCP connection that lives longer than a request: a 2025-era HTTP session or the
 * stdio connection. It carries what the protocol makes per-connection state: the log level the
 * client set, the resources it subscribed to, and the server instance that talks to it.
 */

import type { Server } from '@modelcontextprotocol/server';

/** MCP log levels, least severe first. */
export const LOG_LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
/** An MCP log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** True for a valid MCP log level. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && (LOG_LEVELS as readonly string[]).includes(value);
}

/** True when a message at `level` passes a client's `threshold`. */
export function passesLevel(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

/** A resource a session subscribed to, as the upstream server names it. */
export interface UpstreamResource {
  server: string;
  uri: string;
}

/** A long-lived downstream connection. */
export interface DownstreamSession {
  readonly id: string;
  readonly era: 'legacy' | 'modern';
  /** The level set with `logging/setLevel`; undefined: upstream logs outside its own calls are not sent. */
  logLevel: LogLevel | undefined;
  /** Subscribed resources: the URI the client knows → the upstream one. */
  readonly subscriptions: Map<string, UpstreamResource>;
  /** The server instance connected to this client (set once created). */
  server: Server | undefined;
  /** Called after the client changed its log level or subscriptions (a cluster stores them; awaited before the answer). */
  stateChanged?: () => Promise<void>;
}

/** A fresh session record. */
export function newDownstreamSession(id: string, era: 'legacy' | 'modern'): DownstreamSession {
  return { id, era, logLevel: undefined, subscriptions: new Map(), server: undefined };
}
