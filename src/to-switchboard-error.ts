/**
 * @module to-switchboard-error
 * The one mapping from foreign errors (MCP SDK v2, fetch, Node) to {@link SwitchboardError}. It is the
 * only place allowed to look at an error's message.
 */

import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError, isSwitchboardError } from './errors.js';

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
      ...(server === undefined ? {} : { server }),
      ...extra,
    });

  if (context.aborted === true || (error instanceof Error && error.name === 'AbortError')) {
    return make(ErrorCode.RequestCancelled, 'cancelled');
  }
  if (error instanceof UnauthorizedError) {
    return make(ErrorCode.ServerUnauthorized, 'the server requires authorization (HTTP 401)', {
      hint: 'set `apiKey` or an Authorization header, or log in with `switchboard login`',
      details: { status: 401 },
    });
  }
  if (error instanceof SdkHttpError) return httpError(error.status, error.statusText, make);
  if (error instanceof SdkError) {
    const status = httpStatusOf(error.data);
    if (status !== undefined) return httpError(status, undefined, make);
    switch (error.code) {
      case SdkErrorCode.RequestTimeout:
        return make(ErrorCode.RequestTimeout, 'no answer within the deadline', {
          hint: 'the server may be busy or stuck; raise `callTimeout` if the work is legitimately slow',
        });
      case SdkErrorCode.ConnectionClosed:
      case SdkErrorCode.NotConnected:
      case SdkErrorCode.SendFailed:
        return make(ErrorCode.ServerDisconnected, 'the connection to the server closed');
      case SdkErrorCode.CapabilityNotSupported:
      case SdkErrorCode.MethodNotSupportedByProtocolVersion:
        return make(ErrorCode.CapabilityNotSupported, error.message);
      case SdkErrorCode.EraNegotiationFailed:
        return make(ErrorCode.ProtocolVersionUnsupported, error.message);
      case SdkErrorCode.ClientHttpAuthentication:
        return httpError(401, undefined, make);
      case SdkErrorCode.ClientHttpForbidden:
        return httpError(403, undefined, make);
      default:
        return make(ErrorCode.ServerRequestFailed, error.message, { details: { sdkCode: error.code } });
    }
  }
  if (error instanceof ProtocolError) {
    if (error.code === -32022) {
      return make(ErrorCode.ProtocolVersionUnsupported, error.message, { details: { rpcCode: error.code, data: error.data } });
    }
    if (error.code === -32001) return make(ErrorCode.RequestTimeout, error.message, { details: { rpcCode: error.code } });
    return make(ErrorCode.ServerRequestFailed, error.message, { details: { rpcCode: error.code } });
  }
  if (error instanceof Error) {
    const version = UNSUPPORTED_VERSION.exec(error.message)?.[1];
    if (version !== undefined) {
      return make(ErrorCode.ProtocolVersionUnsupported, `answered with protocol version ${version}, which this client cannot speak`, {
        details: { serverVersion: version },
      });
    }
    const networkCode = networkErrorCode(error);
    if (networkCode !== undefined) {
      return make(ErrorCode.ServerDisconnected, `cannot reach the server (${networkCode})`, {
        hint: networkCode === 'ECONNREFUSED' ? 'nothing is listening at that address; is the server running?' : 'check the URL and the network',
        details: { networkCode },
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

function networkErrorCode(error: Error): string | undefined {
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 4; current = current.cause, depth++) {
    const code = (current as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}
