/**
 * @module mcp-switchboard/gateway
 * The gateway: many MCP servers behind one secure MCP endpoint, per user — `switchboard serve` as a
 * library. A subpath of its own: it brings HTTP serving, the MCP server SDK, the registry and
 * Prometheus, which programs using only the client do not need to load.
 *
 * @example
 * ```ts
 * import { startGateway } from 'mcp-switchboard/gateway';
 * const running = await startGateway({ port: 7410, bootstrap: { tokenFile: '.switchboard/token' } });
 * // … later
 * await running.close();
 * ```
 */

export { Gateway } from './gateway.js';
export type { GatewayOptions } from './gateway.js';
export { createGatewayApp } from './app.js';
export type { GatewayApp, GatewayEnv } from './gateway-app-types.js';
export { startGateway } from './serve.js';
export type { RunningGateway, StartGatewayOptions } from './serve.js';
export { serveGatewayStdio } from './serve-stdio.js';
export type { StdioGateway, StdioGatewayOptions } from './serve-stdio.js';
export { bootstrapAdmin, readTokenFile, writeTokenFile, DEFAULT_ADMIN_NAME, TOKEN_ENV } from './bootstrap-admin.js';
export type { AdminBootstrap, AdminBootstrapOptions } from './bootstrap-admin.js';
export { createJsonLogger, fromPino } from './json-logger.js';
export type { JsonLogger, JsonLoggerOptions, JsonLogLevel } from './json-logger.js';
export { createHostCheck } from './host-check.js';
export type { HostCheck, HostCheckOptions } from './host-check.js';
export { statusOf, toApiError } from './http-error.js';
export type { ApiErrorBody } from './http-error.js';
export type { ServerView, ServerViewStats } from './server-view.js';
// The HTTP API's request and response shapes (the dashboard's contract).
export type {
  AddServerRequest,
  ApiErrorResponse,
  ApiIssue,
  ApiUser,
  CallAnswer,
  CallProgress,
  CallRequest,
  LoginResponse,
  MeResponse,
  ServerChange,
  ServerKind,
  ServerResponse,
  ServersResponse,
  StatsResponse,
  TemplateParameterView,
  TemplateView,
  TemplatesResponse,
  ToolView,
  ToolsResponse,
} from '../contract/api-contract.js';
export type { HttpServerLimits } from './http-server-limits.js';
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_HOST,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_EVENT_STREAMS,
  DEFAULT_MAX_EVENT_STREAMS_PER_USER,
  DEFAULT_MAX_LISTEN_STREAMS,
  DEFAULT_MAX_LISTEN_STREAMS_PER_USER,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_USER,
  DEFAULT_PORT,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_SESSION_IDLE_TTL_MS,
  DEFAULT_SHUTDOWN_DEADLINE_MS,
  EVENTS_PING_INTERVAL_MS,
} from './gateway-defaults.js';
export { MemoryBucketStore } from './access/rate-buckets.js';
export type { BucketAnswer, BucketRequest, RateBucketStore } from './access/rate-buckets.js';
export type { GatewayAccessOptions } from './access/gateway-access.js';
export { connectionSnippets } from './access/connection-snippets.js';
export type { ConnectionSnippets } from './access/connection-snippets.js';
