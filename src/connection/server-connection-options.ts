/**
 * @module connection/server-connection-options
 * What a {@link ServerConnection} is given and what it tells: the connection layer's own options (no
 * layer above shapes them) and its events.
 */

import type { AuthProvider, FetchLike, OAuthClientProvider } from '@modelcontextprotocol/client';
import type { OAuthClientOptions } from '../auth/create-oauth-authorizer.js';
import type { SwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { AttemptTrigger, StartRetryPolicy } from './lifecycle/supervisor.js';
import type { ServerState } from './server-state.js';
import type { StartLimiter } from './start-limiter.js';

/** A handler for server→client requests (elicitation, sampling, roots). */
export type ServerRequestHandler = (params: Record<string, unknown>, context: { server: string; signal: AbortSignal }) => Promise<Record<string, unknown>>;

/** Options of a {@link ServerConnection}. */
export interface ServerConnectionOptions {
  /** @default noopLogger */
  logger?: Logger;
  /** Sent as `clientInfo`. @default { name: 'mcp-switchboard', version } */
  clientInfo?: { name: string; version: string };
  /** Answers `elicitation/create`; the capability is declared only when given. */
  onElicitation?: ServerRequestHandler;
  /** Answers `sampling/createMessage`; the capability is declared only when given. */
  onSampling?: ServerRequestHandler;
  /** `onElicitation` shows URL-mode elicitations too (declares `elicitation.url`). */
  urlElicitation?: boolean;
  /** Extensions declared to every server (`capabilities.extensions`), e.g. MCP Apps' `io.modelcontextprotocol/ui`. */
  extensions?: Record<string, Record<string, unknown>>;
  /** Answers `roots/list`; the capability is declared only when given. */
  roots?: () => Promise<Array<{ uri: string; name?: string }>>;
  /** A fetch for HTTP servers (e.g. one that pins resolved addresses). */
  fetch?: FetchLike;
  /** Credentials for HTTP servers that require authorization (used as given; `oauth` is then ignored). */
  authProvider?: AuthProvider | OAuthClientProvider;
  /**
   * OAuth for HTTP servers: the token store and how a login completes. Servers with `oauth:` in their
   * entry use it always; with this option, every HTTP server without an Authorization header does.
   */
  oauth?: OAuthClientOptions;
  /**
   * Send requests on 2025-era connections through the lean path instead of the SDK's `request()`.
   * @default true
   */
  leanRequests?: boolean;
  /** Bounds concurrent process starts; a start's deadline runs from its spawn. @default sharedStartLimiter() */
  startLimiter?: StartLimiter;
  /**
   * Try again in the background, with backoff, after a failed `connect()` (and after a crash when the
   * server has `restart: false`). Absent: a failed connect stays failed until `connect()` is called.
   */
  startRetry?: StartRetryPolicy;
}

/** Events of a {@link ServerConnection}. */
export interface ServerConnectionEvents {
  /** `trigger`: on `connecting`, why a background attempt began (a start retry, a circuit probe). */
  'state-change': { server: string; from: ServerState; to: ServerState; error?: SwitchboardError; trigger?: AttemptTrigger };
  'list-changed': { server: string; kind: 'tools' | 'prompts' | 'resources' };
  'resource-updated': { server: string; uri: string };
  log: { server: string; level: string; logger?: string; data: unknown };
  stderr: { server: string; line: string };
  /** The connection ended without `close()` (the process died, the stream broke). */
  disconnected: { server: string; error: SwitchboardError; restarting: boolean };
  /** A restart or reconnect succeeded. */
  reconnected: { server: string; attempt: number; reason: string };
}
