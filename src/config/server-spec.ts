/**
 * @module config/server-spec
 * The normalized description of one server: what every layer below the config loader works with.
 */

import type { ConfigIssue } from '../errors.js';
import { oauthSecretValues, type OAuthSettings } from './oauth-settings.js';

/** Start-up deadline (spawn or connect, plus the handshake). @default 10000 */
export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
/**
 * First-start deadline of a server run by a package runner (`npx`, `uvx`, …) whose entry sets no
 * `timeout`: the first run may be downloading the package. @default 60000
 */
export const DEFAULT_FIRST_START_TIMEOUT_MS = 60_000;
/** Per-call deadline. @default 60000 */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Probe timeout for `protocol: auto` over stdio: a silent 2025-era server must not stall start-up. */
export const DEFAULT_STDIO_PROBE_TIMEOUT_MS = 3_000;

/** Retries of failed calls; only ever for calls that are safe to repeat (see MultiServerClient). */
export interface RetryPolicy {
  /** Attempts in all, the first included. @default 3 */
  attempts: number;
  /** Delay before the first retry; doubles each time. @default 200 */
  backoffMs: number;
  /** @default 5000 */
  maxBackoffMs: number;
  /** Also retry read-only tools that timed out. @default false */
  onTimeout: boolean;
}
/** Restarting a server whose process or connection went away. */
export interface RestartPolicy {
  /** Consecutive failed attempts before the circuit opens (state `failed`). @default 5 */
  attempts: number;
  /** First delay; doubles with jitter. @default 500 */
  delayMs: number;
  /** @default 30000 */
  maxDelayMs: number;
  /** While the circuit is open, one attempt every this long. @default 60000 */
  probeIntervalMs: number;
}
/** Health checks by `ping` (2025 era only: 2026-07-28 has no ping). */
export interface HealthCheckPolicy {
  /** @default 30000 */
  intervalMs: number;
  /** @default 5000 */
  timeoutMs: number;
  /** Missed pings in a row that mark the server dead (it is then restarted). @default 3 */
  misses: number;
}
/** How a server's structured results are checked against its tools' output schemas. */
export type OutputValidation = 'off' | 'warn' | 'error';
/** Result caching of a server's tools. */
export interface CachePolicy {
  /** @default 60000 */
  ttlMs: number;
  /** @default 500 */
  maxEntries: number;
  /** Globs of tools to cache; absent means every tool of the server (unless only `readOnly` is set). */
  tools?: string[];
  /** Cache tools annotated `readOnlyHint: true`. */
  readOnly: boolean;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, backoffMs: 200, maxBackoffMs: 5_000, onTimeout: false };
export const DEFAULT_RESTART_POLICY: RestartPolicy = { attempts: 5, delayMs: 500, maxDelayMs: 30_000, probeIntervalMs: 60_000 };
export const DEFAULT_HEALTH_CHECK_POLICY: HealthCheckPolicy = { intervalMs: 30_000, timeoutMs: 5_000, misses: 3 };
export const DEFAULT_CACHE_TTL_MS = 60_000;
export const DEFAULT_CACHE_MAX_ENTRIES = 500;

/**
 * Protocol negotiation: `legacy` speaks the 2025 `initialize` handshake only; `auto` probes with
 * `server/discover` and falls back; `{ pin }` requires exactly that modern revision.
 */
export type ProtocolMode = 'legacy' | 'auto' | { pin: string };

/** Fields every server has, whatever its transport. */
export interface ServerSpecBase {
  /** The server's name in the config (`mcpServers.<name>`). */
  name: string;
  /** @default true */
  enabled: boolean;
  /** Start-up deadline in ms, counted from the spawn (or the connect). @default {@link DEFAULT_STARTUP_TIMEOUT_MS} */
  startupTimeoutMs: number;
  /** Deadline of the first start in this process, when it differs (see {@link DEFAULT_FIRST_START_TIMEOUT_MS}). */
  firstStartTimeoutMs?: number;
  /** Per-call deadline in ms. @default {@link DEFAULT_CALL_TIMEOUT_MS} */
  callTimeoutMs: number;
  /** Prefix for this server's tool names when they need one; defaults to the server name. */
  prefix?: string;
  /** Glob patterns of tool names to keep (all when absent). */
  include?: string[];
  /** Glob patterns of tool names to drop. */
  exclude?: string[];
  /** @default 'legacy' for stdio, 'auto' for HTTP */
  protocol: ProtocolMode;
  /** `false` disables retries. @default DEFAULT_RETRY_POLICY */
  retry?: RetryPolicy | false;
  /** `false` disables restarts. @default DEFAULT_RESTART_POLICY */
  restart?: RestartPolicy | false;
  /** `false` disables health checks. @default DEFAULT_HEALTH_CHECK_POLICY */
  healthCheck?: HealthCheckPolicy | false;
  /** Absent: no result caching. */
  cache?: CachePolicy;
  /**
   * What a tool's `structuredContent` that does not match its `outputSchema` does: `warn` logs it
   * (with the path of each problem) and passes the result on, `error` turns it into an `isError`
   * result that says what is wrong, `off` does not check. @default 'warn'
   */
  validateOutput?: OutputValidation;
  /**
   * Set when the entry's `${VAR}` or `${input:ID}` references have no value (with `onServerError:
   * skip`): the server is never started and is reported failed with these issues.
   */
  unresolved?: ConfigIssue[];
}

/** A server started as a child process speaking newline-delimited JSON-RPC on stdin/stdout. */
export interface StdioServerSpec extends ServerSpecBase {
  type: 'stdio';
  command: string;
  args: string[];
  /** Variables set for the child on top of the safe default environment. Values are secrets. */
  env: Record<string, string>;
  cwd?: string;
  /** Names of host variables passed through to the child besides the safe defaults. */
  inheritEnv: string[];
}

/** A remote server over Streamable HTTP (with automatic fallback to legacy SSE) or legacy SSE. */
export interface HttpServerSpec extends ServerSpecBase {
  type: 'http';
  url: string;
  /** Sent on every request. Values are secrets. */
  headers: Record<string, string>;
  /** `auto`: Streamable HTTP, falling back to SSE on a 4xx. @default 'auto' */
  transport: 'auto' | 'http' | 'sse';
  /** OAuth client settings (`oauth:`); absent when the entry has none. */
  oauth?: OAuthSettings;
}

/** One normalized server. */
export type ServerSpec = StdioServerSpec | HttpServerSpec;

/** How tool names are exposed when several servers are combined. */
export type NamingStrategy = 'on-conflict' | 'prefix' | 'none';

/** A whole normalized configuration. */
export interface SwitchboardConfig {
  servers: ServerSpec[];
  /** @default 'on-conflict' */
  naming: NamingStrategy;
  /** @default 'skip' */
  onServerError: 'skip' | 'throw';
  /** Server processes started at once (`maxConcurrentStarts:`). @default twice the CPU count */
  maxConcurrentStarts?: number;
  /** `authorization:`: the gateway accepts JWTs of this external authorization server (see docs/oauth.md). */
  authorization?: ExternalAuthorizationConfig;
}

/** An external authorization server whose JWT access tokens the gateway accepts (`switchboard serve`). */
export interface ExternalAuthorizationConfig {
  /** Its issuer (`iss` of the tokens), also named in the protected resource metadata. */
  issuer: string;
  /** Where its signing keys are. @default `jwks_uri` of the issuer's discovery document */
  jwksUri?: string;
  /** The `aud` the tokens must carry. @default the gateway's `/mcp` URL */
  audience?: string;
  /** The claim that names the registry user. @default 'sub' */
  userClaim?: string;
  /** Signature algorithms accepted. @default ['RS256', 'ES256', 'PS256', 'EdDSA'] */
  algorithms?: string[];
}

/** Every secret value of a spec (env values, header values, OAuth secrets), for redaction. */
export function secretValuesOf(spec: ServerSpec): string[] {
  const values = spec.type === 'stdio' ? Object.values(spec.env) : [...Object.values(spec.headers), ...oauthSecretValues(spec.oauth)];
  return values.filter((value) => value.length >= 4);
}
