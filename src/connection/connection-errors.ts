/**
 * @module connection/connection-errors
 * The errors a connection raises itself, each with its location as fields (`server`, `operation`)
 * and the failure without it as `reason`; messages are rendered here once.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { ServerState } from './server-state.js';
import type { StdioProcessTransport } from './stdio-process-transport.js';

/** `server "x": reason`, the one way a server-level message is written. */
export function atServer(server: string, reason: string): string {
  return `server "${server}": ${reason}`;
}

/**
 * The failure of `error` without its location when it is `server`'s own server-level error (as
 * built by {@link atServer}), else its whole message.
 */
export function reasonAt(error: SwitchboardError, server: string): string {
  return error.server === server && error.message === atServer(server, error.reason) ? error.reason : error.message;
}

/** `close()` was called. */
export function closedError(server: string): SwitchboardError {
  const reason = 'the connection was closed';
  return new SwitchboardError(ErrorCode.ServerDisconnected, atServer(server, reason), { server, reason });
}

/** The link ended on its own: the process exited or was killed, or the connection closed. */
export function disconnectError(server: string, stdio: StdioProcessTransport | undefined): SwitchboardError {
  const exit = stdio?.exit;
  const reason =
    exit === undefined
      ? 'the connection to the server closed'
      : exit.signal !== null
        ? `the server process was killed by ${exit.signal}`
        : `the server process exited with code ${exit.code}`;
  const stderr = stdio?.stderr.tail(10);
  return new SwitchboardError(ErrorCode.ServerDisconnected, atServer(server, reason), {
    server,
    reason,
    details: { ...(exit === undefined ? {} : { exitCode: exit.code, signal: exit.signal }), ...(stderr ? { stderr } : {}) },
  });
}

/** A request while the connection is not up: the state, why (the last error), and whether it is probed. */
export function notConnectedError(server: string, state: ServerState, lastError: SwitchboardError | undefined, probing: boolean): SwitchboardError {
  const why = lastError === undefined ? '' : `: ${reasonAt(lastError, server)}`;
  const reason = `is not connected (${state})${why}${probing ? ' (restarts gave up for now; it will be probed again)' : ''}`;
  return new SwitchboardError(ErrorCode.ServerDisconnected, `server "${server}" ${reason}`, {
    server,
    reason,
    ...(lastError === undefined ? {} : { cause: lastError, details: lastError.details }),
  });
}

/** A result that breaks the MCP result format. */
export function invalidResultError(server: string, operation: string, problem: string): SwitchboardError {
  const reason = `invalid result: ${problem}`;
  return new SwitchboardError(ErrorCode.ServerRequestFailed, `server "${server}", ${operation}: ${reason}`, {
    server,
    operation,
    reason,
    hint: 'the server broke the MCP result format; report it to the server author',
  });
}

/** The health check gave up on the server. */
export function missedPingsError(server: string, missed: number, cause: SwitchboardError): SwitchboardError {
  const reason = `missed ${missed} health checks in a row`;
  return new SwitchboardError(ErrorCode.ServerDisconnected, `server "${server}" ${reason}`, { server, operation: 'ping', reason, cause });
}

/** The connection this side dropped because the server sent `what` (more than a bound allows). */
export function droppedError(server: string, what: string): SwitchboardError {
  const reason = `it sent ${what}: the connection was dropped`;
  return new SwitchboardError(ErrorCode.ServerDisconnected, atServer(server, reason), { server, reason, hint: 'a server answers a request with less than that; check the server' });
}
