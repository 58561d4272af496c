/**
 * @module connection/session/map-rpc-error
 * A JSON-RPC error response on the lean path, as the typed error its request rejects with (mapped
 * exactly as the SDK's `ProtocolError` would be).
 */

import type { SwitchboardError } from '../../errors.js';
import { RpcError, toSwitchboardError } from '../../to-switchboard-error.js';
import type { RpcErrorPayload } from '../lean-requester.js';

/** Maps the `error` member of a response to `method` from `server`. */
export function mapRpcError(error: RpcErrorPayload, server: string, method: string): SwitchboardError {
  const code = typeof error?.code === 'number' ? error.code : -32603;
  const message = typeof error?.message === 'string' ? error.message : 'unknown error';
  return toSwitchboardError(new RpcError(code, message, error?.data), { server, operation: method });
}
