/**
 * @module gateway/gateway-options
 * What {@link Gateway.create} takes: the registry, the shared servers and the gateway's limits.
 */

import type { NamingStrategy, ServerSpec } from '../config/server-spec.js';
import type { ToolSearchMode } from '../client/search/tool-search-mode.js';
import type { Logger } from '../logger.js';
import type { ClientPoolTuning } from '../pool/index.js';
import type { ServerRegistry } from '../registry/index.js';
import type { GatewayAccessOptions } from './access/gateway-access.js';

/** Options of {@link Gateway.create}. */
export interface GatewayOptions {
  /** The registry of users, tokens and per-user servers (the caller opens and closes it). */
  registry: ServerRegistry;
  /** Servers every user gets (the `--config` file), never written to the registry, and the naming strategy. */
  sharedConfig?: { servers: readonly ServerSpec[]; naming?: NamingStrategy };
  /** @default noopLogger */
  logger?: Logger;
  /** Host names accepted in `Host` besides the loopback names (and in `Origin`). */
  allowedHosts?: readonly string[];
  /** Origins accepted besides the loopback names and the allowed hosts. */
  allowedOrigins?: readonly string[];
  /** @default DEFAULT_MAX_BODY_BYTES */
  maxBodyBytes?: number;
  /** @default DEFAULT_SESSION_IDLE_TTL_MS */
  sessionIdleTtlMs?: number;
  /** 2025-era sessions per user; more are refused with 429. @default DEFAULT_MAX_SESSIONS_PER_USER */
  maxSessionsPerUser?: number;
  /** 2025-era sessions in total. @default DEFAULT_MAX_SESSIONS */
  maxSessions?: number;
  /** 2026-07-28 `subscriptions/listen` streams per user; more are refused with 429. @default DEFAULT_MAX_LISTEN_STREAMS_PER_USER */
  maxListenStreamsPerUser?: number;
  /** `subscriptions/listen` streams in total. @default DEFAULT_MAX_LISTEN_STREAMS */
  maxListenStreams?: number;
  /** `/api/events` streams per user; more are refused with 429. @default DEFAULT_MAX_EVENT_STREAMS_PER_USER */
  maxEventStreamsPerUser?: number;
  /** `/api/events` streams in total. @default DEFAULT_MAX_EVENT_STREAMS */
  maxEventStreams?: number;
  /** Pool tuning (idle TTL, cap, call queue timeout, audit, client options). */
  pool?: ClientPoolTuning;
  /** How long a verified token is trusted before the registry is asked again; 0 asks every time. @default TOKEN_CACHE_TTL_MS */
  tokenCacheTtlMs?: number;
  /** Rate-limit clock and bucket store (tool rules, endpoints and limits live in the registry). */
  access?: GatewayAccessOptions;
  /** Tool search on `/mcp` (and endpoints that set none) for users without their own setting. @default none: every definition */
  toolSearch?: ToolSearchMode;
}
