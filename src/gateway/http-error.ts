/**
 * @module gateway/http-error
 * The one mapping from errors to HTTP answers of the gateway: the status of each error code, the
 * `/api` body `{ error: { code, message, server?, hint?, issues? } }`, and the JSON-RPC body used
 * on `/mcp`. Unknown errors become 500 with a generic message (their text may hold anything).
 */

import type { ApiErrorBody } from '../contract/api-contract.js';
import { ConfigError, ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';

export type { ApiErrorBody };

/** HTTP status of an error code. */
export function statusOf(code: string): number {
  switch (code) {
    case ErrorCode.InvalidArgument:
    case ErrorCode.ConfigInvalid:
      return 400;
    case ErrorCode.Unauthorized:
      return 401;
    case ErrorCode.Forbidden:
    case ErrorCode.PolicyViolation:
      return 403;
    case ErrorCode.NotFound:
    case ErrorCode.ServerNotFound:
    case ErrorCode.ToolNotFound:
      return 404;
    case ErrorCode.AlreadyExists:
      return 409;
    case ErrorCode.PayloadTooLarge:
      return 413;
    case ErrorCode.LimitExceeded:
      return 429;
    case ErrorCode.RequestTimeout:
      return 504;
    case ErrorCode.ServerDisconnected:
    case ErrorCode.ServerStartFailed:
    case ErrorCode.ServerHttpError:
    case ErrorCode.ServerRequestFailed:
    case ErrorCode.ServerUnauthorized:
    case ErrorCode.ProtocolVersionUnsupported:
    case ErrorCode.CapabilityNotSupported:
      return 502;
    case ErrorCode.Unavailable:
    case ErrorCode.CallInterrupted:
    case ErrorCode.RequestCancelled:
    case ErrorCode.DatabaseError:
      return 503;
    default:
      return 500;
  }
}

/** The error as the `/api` body shows it, with its status. */
export function toApiError(error: unknown): { status: number; body: { error: ApiErrorBody } } {
  if (!isSwitchboardError(error)) {
    return { status: 500, body: { error: { code: ErrorCode.Internal, message: 'internal error (see the gateway log)' } } };
  }
  const body: ApiErrorBody = { code: error.code, message: error.message };
  if (error.server !== undefined) body.server = error.server;
  if (error.hint !== undefined) body.hint = error.hint;
  if (error instanceof ConfigError) body.issues = [...error.issues];
  const rules = error.details.rules;
  if (Array.isArray(rules) && rules.every((rule) => typeof rule === 'string')) body.rules = rules;
  return { status: statusOf(error.code), body: { error: body } };
}

/** A JSON `/api` error response. */
export function apiErrorResponse(error: unknown): Response {
  const { status, body } = toApiError(error);
  const retryAfterMs = isSwitchboardError(error) ? error.details.retryAfterMs : undefined;
  const headers: Record<string, string> = status === 401 ? { 'www-authenticate': 'Bearer realm="switchboard"' } : {};
  // A rate limit says when to come back (RFC 9110 Retry-After, whole seconds).
  if (typeof retryAfterMs === 'number') headers['retry-after'] = String(Math.max(1, Math.ceil(retryAfterMs / 1000)));
  return Response.json(body, { status, headers });
}

/** A JSON-RPC error response for `/mcp` (code -32000 as the MCP SDK uses for transport-level refusals). */
export function mcpErrorResponse(error: unknown): Response {
  const { status, body } = toApiError(error);
  return Response.json(
    { jsonrpc: '2.0', error: { code: -32000, message: body.error.message, data: { code: body.error.code, ...(body.error.hint === undefined ? {} : { hint: body.error.hint }) } }, id: null },
    { status, headers: status === 401 ? { 'www-authenticate': 'Bearer realm="switchboard"' } : {} },
  );
}

/** Shorthand for the gateway's own refusals. */
export function gatewayError(code: ErrorCode, message: string, hint?: string): SwitchboardError {
  return new SwitchboardError(code, message, hint === undefined ? {} : { hint });
}
