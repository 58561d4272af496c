/**
 * @module client/call/reason-of
 * The failure of an error without its location, for a message that names the server and tool
 * itself: the error's `reason`, when it was built with one.
 */

import type { SwitchboardError } from '../../errors.js';

/**
 * `error.reason` when the error was built with its own (it differs from the message); undefined
 * when not — some errors of `connection/` still carry their location only in the message, and the
 * caller then cuts it off itself (that fallback goes once every producer sets `reason`).
 */
export function reasonOf(error: SwitchboardError): string | undefined {
  return error.reason === error.message ? undefined : error.reason;
}
