/**
 * @module gateway/fast-mcp-errors
 * JSON-RPC `error` members for the fast path's answers: a protocol error (what the aggregated
 * server throws for an unknown tool or an upstream's own JSON-RPC error) keeps its code, message and
 * data, as the SDK writes it; anything else is the gateway's internal error, without its details.
 */

import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { toProtocolError } from './wire-format.js';

/** The `error` member of a JSON-RPC answer. */
export interface JsonRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** True for the SDK's ProtocolError (branded, so it holds across copies of the SDK). */
export function isProtocolErrorLike(error: unknown): error is ProtocolError {
  return error instanceof ProtocolError;
}

/** The JSON-RPC error of `error` (a SwitchboardError is translated as the aggregated server does). */
export function jsonRpcErrorOf(error: unknown): JsonRpcError {
  const protocol = isProtocolErrorLike(error) ? error : error === undefined ? new ProtocolError(ProtocolErrorCode.InternalError, 'internal error of the gateway') : toProtocolError(error);
  return { code: protocol.code, message: protocol.message, ...(protocol.data === undefined ? {} : { data: protocol.data }) };
}
