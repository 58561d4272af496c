/**
 * @module to-switchboard-error
 * The one mapping from foreign errors (MCP SDK v2, fetch, Node) to {@link SwitchboardError}. It is the
 * only place allowed to look at an error's message.
 *
 * SDK errors are recognised by the brands the SDK stamps on every error it creates (what its own
 * `instanceof` checks read), so this module does not load the SDK: a process that never touched the
 * SDK (a stdio server on the lean path) cannot hold one of its errors anyway.
 */

import { ErrorCode, SwitchboardError, isSwitchboardError } from './errors.js';
import { innermostMessage, networkFailureHint, networkFailureInSseMessage, networkFailureOf } from './network-failure.js';

/** Where the SDK keeps an error's brands (`stampErrorBrands` in @modelcontextprotocol/core). */
const SDK_ERROR_BRANDS = Symbol.for('mcp.sdk.errorBrands');

/** The SDK's `SdkErrorCode` values this mapping distinguishes (checked against the SDK by a test). */
export const SDK_ERROR_CODES = {
  RequestTimeout: 'REQUEST_TIMEOUT',
  ConnectionClosed: 'CONNECTION_CLOSED',
  NotConnected: 'NOT_CONNECTED',
  SendFailed: 'SEND_FAILED',
  CapabilityNotSupported: 'CAPABILITY_NOT_SUPPORTED',
  MethodNotSupportedByProtocolVersion: 'METHOD_NOT_SUPPORTED_BY_PROTOCOL_VERSION',
  EraNegotiationFailed: 'ERA_NEGOTIATION_FAILED',
  ClientHttpAuthentication: 'CLIENT_HTTP_AUTHENTICATION',
  ClientHttpForbidden: 'CLIENT_HTTP_FORBIDDEN',
} as const;

/** JSON-RPC error codes with a mapping of their own. */
const RPC_UNSUPPORTED_PROTOCOL_VERSION = -32022;
const RPC_REQUEST_TIMEOUT = -32001;

/** True when the SDK created `error` as an instance of the class branded `brand` (e.g. `mcp.SdkError`). */
function hasSdkBrand(error: unknown, brand: string): boolean {
  if (typeof error !== 'object' || error === null || !Object.prototype.hasOwnProperty.call(error, SDK_ERROR_BRANDS)) return false;
  const brands: unknown = (error as Record<symbol, unknown>)[SDK_ERROR_BRANDS];
  return brands instanceof Set && brands.has(brand);
}

/**
 * A JSON-RPC error answered by a server, as a plain Error shaped like the SDK's `ProtocolError`
 * (`code`, `data`): the lean request path gets error responses without the SDK loaded.
 */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }
}

/** Context for {@link toSwitchboardError}. */
export interface ErrorContext {
  server?: string;
  /** True when the caller's own AbortSignal fired (the SDK reports that as a timeout). */
  aborted?: boolean;
  /** What was being done, e.g. `tools/call search`; prefixed to the message. */
  operation?: string;
}

const UNSUPPORTED_VERSION = /protocol version is not supported: (\S+)/i;

/** Maps any thrown value to a SwitchboardError, keeping the original as `cause`. */
export function toSwitchboardError(error: unknown, context: ErrorContext = {}): SwitchboardError {
  if (isSwitchboardError(error)) return error;
  // A policy refusal thrown inside the SDK (by the registry's address-pinning fetch) keeps its code
  // through the SDK's wrapping (e.g. a failed version probe), so people see which rule refused.
  const refusal = policyViolationInCauses(error);
  if (refusal !== undefined) return refusal;
  const { server } = context;
  const prefix = `${server === undefined ? '' : `server "${server}"`}${context.operation === undefined ? '' : `${server === undefined ? '' : ', '}${context.operation}`}`;
  const make = (code: ErrorCode, message: string, extra: { hint?: string; details?: Record<string, unknown> } = {}): SwitchboardError =>
    new SwitchboardError(code, prefix === '' ? message : `${prefix}: ${message}`, {
      cause: error,
      // The failure without its location, so surfaces that name the server do not cut the message apart.
      reason: message,
      ...(server === undefined ? {} : { server }),
      ...(context.operation === undefined ? {} : { operation: context.operation }),
      ...extra,
    });

  if (context.aborted === true || (error instanceof Error && error.name === 'AbortError')) {
    return make(ErrorCode.RequestCancelled, 'cancelled');
  }
  // The OAuth layer raises our own error wrapped in the SDK's, so the SDK treats it as an auth failure.
  if (hasSdkBrand(error, 'mcp.UnauthorizedError') && isSwitchboardError((error as Error).cause)) return (error as Error).cause as SwitchboardError;
  if (hasSdkBrand(error, 'mcp.InsufficientScopeError')) {
    const requiredScope = (error as { requiredScope?: unknown }).requiredScope;
    return make(ErrorCode.ServerUnauthorized, `the server refused access: insufficient scope${typeof requiredScope === 'string' ? ` (needs ${requiredScope})` : ''} (HTTP 403)`, {
      hint: 'the credentials lack a permission this server requires',
      details: { status: 403, reason: 'insufficient-scope' },
    });
  }
  if (hasSdkBrand(error, 'mcp.OAuthError')) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    return make(ErrorCode.ServerUnauthorized, `the authorization server answered ${String(code)}${message === '' || typeof message !== 'string' ? '' : `: ${message}`}`, {
      hint: 'check the OAuth client settings (client id, secret, key); for a login, try `switchboard login NAME --force`',
      details: { reason: 'oauth-error', oauthError: code },
    });
  }
  if (hasSdkBrand(error, 'mcp.OAuthClientFlowError')) {
    return make(ErrorCode.ServerUnauthorized, (error as Error).message, {
      hint: 'the authorization server or its metadata failed a security check; check the server URL',
      details: { reason: 'oauth-check-failed', kind: (error as Error).name },
    });
  }
  if (hasSdkBrand(error, 'mcp.UnauthorizedError')) {    return make(ErrorCode.ServerUnauthorized, 'the server requires authorization (HTTP 401)', {
      hint: 'set `apiKey` or an Authorization header, or log in with `switchboard login`',
      details: { status: 401 },
    });
  }
  if (hasSdkBrand(error, 'mcp.SdkHttpError')) {
    const { status, statusText } = error as { status?: unknown; statusText?: unknown };
    // A JSON-RPC error in the body says more than the status (e.g. a 400 that is -32022).
    const rpc = rpcErrorInBody((error as { data?: unknown }).data);
    if (rpc?.code === RPC_UNSUPPORTED_PROTOCOL_VERSION) {
      return make(ErrorCode.ProtocolVersionUnsupported, rpc.message, { details: { rpcCode: rpc.code, data: rpc.data, status } });
    }
    if (typeof status === 'number') return httpError(status, typeof statusText === 'string' ? statusText : undefined, make);
  }
  let network = networkFailureOf(error);
  if (hasSdkBrand(error, 'mcp.SseError')) {
    const status = (error as { code?: unknown }).code;
    if (typeof status === 'number' && status >= 400) return httpError(status, undefined, make);
    if (error instanceof Error) network ??= networkFailureInSseMessage(error.message);
  }
  if (network !== undefined) {
    return make(ErrorCode.ServerDisconnected, `cannot reach the server (${network.reason})`, {
      hint: networkFailureHint(network),
      details: { ...(network.code === undefined ? {} : { networkCode: network.code }), ...(network.address === undefined ? {} : { address: network.address }) },
    });
  }
  if (hasSdkBrand(error, 'mcp.SdkError')) {
    const sdkError = error as Error & { code?: unknown; data?: unknown };
    const status = httpStatusOf(sdkError.data);
    if (status !== undefined) return httpError(status, undefined, make);
    switch (sdkError.code) {
      case SDK_ERROR_CODES.RequestTimeout:
        return make(ErrorCode.RequestTimeout, 'no answer within the deadline', {
          hint: 'the server may be busy or stuck; raise `callTimeout` if the work is legitimately slow',
        });
      case SDK_ERROR_CODES.ConnectionClosed:
      case SDK_ERROR_CODES.NotConnected:
      case SDK_ERROR_CODES.SendFailed:
        return make(ErrorCode.ServerDisconnected, 'the connection to the server closed');
      case SDK_ERROR_CODES.CapabilityNotSupported:
      case SDK_ERROR_CODES.MethodNotSupportedByProtocolVersion:
        return make(ErrorCode.CapabilityNotSupported, sdkError.message);
      case SDK_ERROR_CODES.EraNegotiationFailed: {
        // The probe failing on the network is a connection problem, not a version one.
        const cause = typeof sdkError.data === 'object' && sdkError.data !== null ? (sdkError.data as { cause?: unknown }).cause : undefined;
        if (cause !== undefined) {
          return make(ErrorCode.ServerDisconnected, `cannot reach the server (${innermostMessage(cause)})`, { hint: 'check the URL and that the server is running' });
        }
        return make(ErrorCode.ProtocolVersionUnsupported, sdkError.message);
      }
      case SDK_ERROR_CODES.ClientHttpAuthentication:
        return httpError(401, undefined, make);
      case SDK_ERROR_CODES.ClientHttpForbidden:
        return httpError(403, undefined, make);
      default:
        return make(ErrorCode.ServerRequestFailed, sdkError.message, { details: { sdkCode: sdkError.code } });
    }
  }
  if (error instanceof RpcError || (hasSdkBrand(error, 'mcp.ProtocolError') && typeof (error as { code?: unknown }).code === 'number')) {
    const { code, data, message } = error as RpcError;
    if (code === RPC_UNSUPPORTED_PROTOCOL_VERSION) {
      return make(ErrorCode.ProtocolVersionUnsupported, message, { details: { rpcCode: code, data } });
    }
    if (code === RPC_REQUEST_TIMEOUT) return make(ErrorCode.RequestTimeout, message, { details: { rpcCode: code } });
    return make(ErrorCode.ServerRequestFailed, message, { details: { rpcCode: code } });
  }
  if (error instanceof Error) {
    const version = UNSUPPORTED_VERSION.exec(error.message)?.[1];
    if (version !== undefined) {
      return make(ErrorCode.ProtocolVersionUnsupported, `answered with protocol version ${version}, which this client cannot speak`, {
        details: { serverVersion: version },
      });
    }
    return make(ErrorCode.Internal, error.message);
  }
  return make(ErrorCode.Internal, String(error));
}

function policyViolationInCauses(error: unknown): SwitchboardError | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    current = current.cause;
    if (isSwitchboardError(current) && current.code === ErrorCode.PolicyViolation) return current;
  }
  return undefined;
}

function httpError(
  status: number,
  statusText: string | undefined,
  make: (code: ErrorCode, message: string, extra?: { hint?: string; details?: Record<string, unknown> }) => SwitchboardError,
): SwitchboardError {
  const text = statusText === undefined || statusText === '' ? '' : ` ${statusText}`;
  if (status === 401) {
    return make(ErrorCode.ServerUnauthorized, `the server requires authorization (HTTP 401${text})`, {
      hint: 'set `apiKey` or an Authorization header, or log in with `switchboard login`',
      details: { status },
    });
  }
  if (status === 403) {
    return make(ErrorCode.ServerUnauthorized, `the server refused access (HTTP 403${text})`, {
      hint: 'the credentials are valid but lack permission (scope) for this server',
      details: { status },
    });
  }
  if (status === 404) {
    return make(ErrorCode.ServerHttpError, `HTTP 404${text}`, {
      hint: 'check the URL path (often /mcp); an SSE-only server answers 404 to Streamable HTTP — its URL usually ends in /sse',
      details: { status },
    });
  }
  return make(ErrorCode.ServerHttpError, `HTTP ${status}${text}`, { details: { status } });
}

function httpStatusOf(data: unknown): number | undefined {
  if (typeof data === 'object' && data !== null && 'status' in data && typeof data.status === 'number') return data.status;
  return undefined;
}

/** The JSON-RPC error an HTTP error response carried in its body, if any. */
function rpcErrorInBody(data: unknown): { code: number; message: string; data?: unknown } | undefined {
  const text = typeof data === 'object' && data !== null ? (data as { text?: unknown }).text : undefined;
  if (typeof text !== 'string' || !text.startsWith('{')) return undefined;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const { code, message } = body.error ?? {};
    return typeof code === 'number' && typeof message === 'string' ? { code, message, data: body.error?.data } : undefined;
  } catch {
    return undefined;
  }
}
