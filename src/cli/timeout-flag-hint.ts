/**
 * @module cli/timeout-flag-hint
 * A call that ran out of the time given with `--timeout` says to raise `--timeout`: the knob the user
 * turned, not the config's `callTimeout` or the library's `timeoutMs`.
 */

import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';

/** `error` with its hint naming `--timeout` when it is a timeout of a call given `--timeout SECONDS`. */
export function withTimeoutFlagHint(error: unknown, seconds: number | undefined): unknown {
  if (seconds === undefined || !isSwitchboardError(error) || error.code !== ErrorCode.RequestTimeout) return error;
  return new SwitchboardError(error.code, error.message, {
    cause: error.cause,
    ...(error.server === undefined ? {} : { server: error.server }),
    hint: `the server may be busy or stuck; raise --timeout (${seconds} s now) if the work is legitimately slow`,
    details: error.details,
  });
}
