/**
 * @module client/servers/optional-list-failure
 * Prompts, resources and resource templates are optional: a server may declare the `resources`
 * capability and still not implement `resources/templates/list` (the reference server-postgres does
 * exactly that). "Method not found" there is the server's normal answer, not a problem worth a warning
 * on every command; any other failure of an optional list is.
 */

import { ErrorCode, isSwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';

/** JSON-RPC "Method not found". */
const RPC_METHOD_NOT_FOUND = -32601;

/** True when the server simply does not implement the list (or the protocol version lacks it). */
export function isListNotImplemented(error: unknown): boolean {
  if (!isSwitchboardError(error)) return false;
  return error.code === ErrorCode.CapabilityNotSupported || error.details.rpcCode === RPC_METHOD_NOT_FOUND;
}

/** Logs a failed optional list: debug when the server does not implement it, warn otherwise. */
export function logOptionalListFailure(logger: Logger, server: string, what: string, error: unknown): void {
  const fields = { server, error: String(error) };
  if (isListNotImplemented(error)) logger.debug(`the server does not implement listing ${what}; continuing without them`, fields);
  else logger.warn(`listing ${what} failed; continuing without them`, fields);
}
