/**
 * @module gateway/http-server-limits
 * Bounds on the gateway's TCP connections, before any request is authenticated: a cap on open
 * connections, and deadlines for receiving the headers (the token is among them) and the whole
 * request. Without them 20,000 slow-loris connections, each sending a few bytes of headers, drove
 * the gateway to its file-descriptor limit (issue 14, finding 5).
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_MAX_CONNECTIONS, DEFAULT_REQUEST_TIMEOUT_MS } from './gateway-defaults.js';

/** The connection limits of the gateway's HTTP server. */
export interface HttpServerLimits {
  /** @default DEFAULT_MAX_CONNECTIONS */
  maxConnections?: number;
  /** @default DEFAULT_HEADERS_TIMEOUT_MS */
  headersTimeoutMs?: number;
  /** @default DEFAULT_REQUEST_TIMEOUT_MS */
  requestTimeoutMs?: number;
}

/** The limits as Node applies them: `http.createServer` options and the server's `maxConnections`. */
export interface ResolvedHttpServerLimits {
  serverOptions: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
  /** Connections past it are closed on arrival. */
  maxConnections: number;
}

/** Checks the limits (a bad value fails the start) and fills in the defaults. */
export function resolveHttpServerLimits(limits: HttpServerLimits): ResolvedHttpServerLimits {
  const headersTimeout = positive(limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS, 'headersTimeoutMs');
  const requestTimeout = positive(limits.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeoutMs');
  if (headersTimeout > requestTimeout) {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `headersTimeoutMs (${headersTimeout}) must not be longer than requestTimeoutMs (${requestTimeout})`);
  }
  return {
    // Node checks the deadlines on an interval (30 s by default): often enough for them to hold.
    serverOptions: { headersTimeout, requestTimeout, connectionsCheckingInterval: Math.max(250, Math.min(1_000, Math.floor(headersTimeout / 2))) },
    maxConnections: positive(limits.maxConnections ?? DEFAULT_MAX_CONNECTIONS, 'maxConnections'),
  };
}

function positive(value: number, option: string): number {
  if (!Number.isInteger(value) || value < 1) throw new SwitchboardError(ErrorCode.InvalidArgument, `${option} must be a whole number of at least 1, got ${String(value)}`);
  return value;
}
