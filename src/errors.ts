/**
 * @module errors
 * The one error type of mcp-switchboard. Every failure that crosses a module boundary is a
 * {@link SwitchboardError} with a stable string `code`; match on `code`, never on `message`.
 */

/** Stable error codes. Frozen once released: add new ones, never rename. */
export const ErrorCode = {
  ConfigInvalid: 'CONFIG_INVALID',
  ServerNotFound: 'SERVER_NOT_FOUND',
  ServerStartFailed: 'SERVER_START_FAILED',
  ServerDisconnected: 'SERVER_DISCONNECTED',
  ServerUnauthorized: 'SERVER_UNAUTHORIZED',
  ServerHttpError: 'SERVER_HTTP_ERROR',
  ServerRequestFailed: 'SERVER_REQUEST_FAILED',
  ProtocolVersionUnsupported: 'PROTOCOL_VERSION_UNSUPPORTED',
  ToolNotFound: 'TOOL_NOT_FOUND',
  CapabilityNotSupported: 'CAPABILITY_NOT_SUPPORTED',
  RequestTimeout: 'REQUEST_TIMEOUT',
  RequestCancelled: 'REQUEST_CANCELLED',
  InvalidArgument: 'INVALID_ARGUMENT',
  Internal: 'INTERNAL',
  /** A registry rule (tenant policy) refused the operation; `details.rules` names each rule. */
  PolicyViolation: 'POLICY_VIOLATION',
  /** A registry record (user, template, token) does not exist or is not visible to the caller. */
  NotFound: 'NOT_FOUND',
  /** A registry record with that name exists already. */
  AlreadyExists: 'ALREADY_EXISTS',
  /** A per-user limit (servers, concurrent calls) is reached. */
  LimitExceeded: 'LIMIT_EXCEEDED',
  /** The registry database cannot be opened, migrated or queried. */
  DatabaseError: 'DATABASE_ERROR',
  /** The secret key is missing, malformed, or not the one the stored secrets were encrypted with. */
  SecretKeyInvalid: 'SECRET_KEY_INVALID',
  /** The gateway: no API token, or an unknown, expired or revoked one (HTTP 401). */
  Unauthorized: 'UNAUTHORIZED',
  /** The gateway: refused whoever asks (a foreign Origin or Host, another user's session; HTTP 403). */
  Forbidden: 'FORBIDDEN',
  /** The gateway: the request body is over the limit (HTTP 413). */
  PayloadTooLarge: 'PAYLOAD_TOO_LARGE',
  /** The gateway is shutting down or not ready (HTTP 503). */
  Unavailable: 'UNAVAILABLE',
  /** The gateway: the replica holding a call or login in progress is gone; start it again (HTTP 503). */
  CallInterrupted: 'CALL_INTERRUPTED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const BRAND = Symbol.for('mcp-switchboard.error');

/** Options of {@link SwitchboardError}. */
export interface SwitchboardErrorOptions {
  /** The original error, kept for loggers that walk `Error.cause`. */
  cause?: unknown;
  /** The server the failure belongs to, when there is one. */
  server?: string;
  /** The tool the failure belongs to (its catalog name), when there is one. */
  tool?: string;
  /** What was being done: `start`, `initialize`, `tools/call`, `resources/read`, … */
  operation?: string;
  /**
   * The failure without its location (`timed out after 5 s`), for surfaces that show the location
   * themselves (an error to a model, a table row). Defaults to `message`. Never parse `message` for it.
   */
  reason?: string;
  /** What the user can do about it, one sentence. */
  hint?: string;
  /** Structured data for programs (HTTP status, JSON-RPC code, stderr tail, …). Never secrets. */
  details?: Record<string, unknown>;
}

/**
 * A failure with a stable `code`.
 *
 * @example
 * ```ts
 * try { await client.callTool('search', {}); }
 * catch (error) { if (isSwitchboardError(error) && error.code === ErrorCode.RequestTimeout) retryLater(); }
 * ```
 */
export class SwitchboardError extends Error {
  override readonly name: string = 'SwitchboardError';
  readonly code: ErrorCode;
  readonly server: string | undefined;
  readonly tool: string | undefined;
  readonly operation: string | undefined;
  /** The failure without its location; `message` is the whole sentence. */
  readonly reason: string;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message: string, options: SwitchboardErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.server = options.server;
    this.tool = options.tool;
    this.operation = options.operation;
    this.reason = options.reason ?? message;
    this.hint = options.hint;
    this.details = options.details ?? {};
  }

  /** The JSON shape used by the CLI (`--json`) and the gateway: no stack, no cause. */
  toJSON(): { code: ErrorCode; message: string; server?: string; hint?: string } {
    return {
      code: this.code,
      message: this.message,
      ...(this.server === undefined ? {} : { server: this.server }),
      ...(this.hint === undefined ? {} : { hint: this.hint }),
    };
  }
}

/** True for a {@link SwitchboardError}, also across copies of this package. */
export function isSwitchboardError(value: unknown): value is SwitchboardError {
  return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
}

/** One problem found in a configuration, at a dotted path such as `mcpServers.github.url`. */
export interface ConfigIssue {
  path: string;
  message: string;
  hint?: string;
}

/** Invalid configuration: carries every problem found at once, and the warnings beside them. */
export class ConfigError extends SwitchboardError {
  override readonly name = 'ConfigError';
  readonly issues: readonly ConfigIssue[];
  readonly warnings: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], warnings: readonly ConfigIssue[] = [], source?: string) {
    const where = source === undefined ? 'configuration' : source;
    const lines = issues.map((issue) => `  ${formatConfigIssue(issue)}`);
    super(ErrorCode.ConfigInvalid, `${where} has ${issues.length} problem${issues.length === 1 ? '' : 's'}:\n${lines.join('\n')}`, {
      details: { issues },
    });
    this.issues = issues;
    this.warnings = warnings;
  }
}

/** `path: message (hint)` — the one way config issues are printed. */
export function formatConfigIssue(issue: ConfigIssue): string {
  const prefix = issue.path === '' ? '' : `${issue.path}: `;
  return `${prefix}${issue.message}${issue.hint === undefined ? '' : ` — ${issue.hint}`}`;
}
