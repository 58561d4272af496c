/**
 * @module connection/start-error
 * A start-up failure, explained: which step failed, what the server said, what to do. Every error
 * names its server and the `start` operation as fields, and its `reason` is the failure without them.
 */

import type { ServerSpec } from '../config/server-spec.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { toSwitchboardError } from '../to-switchboard-error.js';
import { reasonAt } from './connection-errors.js';
import type { TransportKind } from './create-transport.js';
import { LEGACY_PROTOCOL_VERSIONS } from './lean-client.js';
import type { StdioProcessTransport } from './stdio-process-transport.js';

/** The start-up deadline, as an abort reason we can recognise. */
export class DeadlineExceeded extends Error {
  constructor() {
    super('start-up deadline exceeded');
    this.name = 'DeadlineExceeded';
  }
}

/** True for errors that mean the transport went away (as opposed to an answer we did not like). */
export function isConnectionLoss(error: unknown): boolean {
  const mapped = toSwitchboardError(error);
  return mapped.code === ErrorCode.ServerDisconnected || mapped.code === ErrorCode.Internal;
}

/** What is known about the failed attempt. */
export interface StartAttempt {
  spec: ServerSpec;
  stdio: StdioProcessTransport | undefined;
  transportKind: TransportKind | undefined;
  /** The attempt's deadline. */
  deadlineMs: number;
  /** The attempt was aborted with this reason (a {@link DeadlineExceeded} when its deadline passed). */
  abortReason: unknown;
}

const operation = 'start';

/** Explains `error`, the failure of one start attempt. */
export function explainStartError(error: unknown, attempt: StartAttempt): SwitchboardError {
  const { spec, stdio } = attempt;
  const server = spec.name;
  const stderr = stdio?.stderr.tail(20) ?? '';
  const details: Record<string, unknown> = { transport: attempt.transportKind, ...(stderr === '' ? {} : { stderr }) };
  const exit = stdio?.exit;
  if (attempt.abortReason instanceof DeadlineExceeded && exit === undefined) {
    const timeoutMs = attempt.deadlineMs;
    const reason = `did not complete the handshake within ${timeoutMs / 1000} s`;
    return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${server}" ${reason}`, {
      server,
      operation,
      reason,
      cause: error,
      hint:
        spec.type === 'stdio'
          ? 'a server that waits for input, prints its messages elsewhere, or is still downloading (npx) looks like this; raise `timeout` if it is just slow'
          : 'the server accepted the connection but did not answer initialize; check it is an MCP endpoint, or raise `timeout`',
      details: { ...details, reason: 'timeout', timeoutMs },
    });
  }
  if (exit !== undefined && isConnectionLoss(error)) {
    const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const reason = `${how} during start-up${stderr === '' ? '' : `; stderr:\n${indent(stderr)}`}`;
    return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${server}" ${reason}`, {
      server,
      operation,
      reason,
      cause: error,
      hint: spec.type === 'stdio' ? `run it by hand to see why: ${[spec.command, ...spec.args].join(' ')}` : undefined,
      details: { ...details, reason: 'exited', exitCode: exit.code, signal: exit.signal },
    });
  }
  const mapped = toSwitchboardError(error, { server });
  if (mapped.code === ErrorCode.ProtocolVersionUnsupported) {
    const serverVersion = typeof mapped.details.serverVersion === 'string' ? mapped.details.serverVersion : undefined;
    const ours = LEGACY_PROTOCOL_VERSIONS.join(', ');
    const reason =
      serverVersion === undefined
        ? `no protocol version in common (${mapped.message}); this client speaks ${ours}, and 2026-07-28 with protocol: auto`
        : `speaks protocol version ${serverVersion}; this client speaks ${ours}, and 2026-07-28 with protocol: auto`;
    return new SwitchboardError(ErrorCode.ProtocolVersionUnsupported, serverVersion === undefined ? `server "${server}": ${reason}` : `server "${server}" ${reason}`, {
      server,
      operation,
      reason,
      cause: error,
      hint: 'upgrade the server (or this client); for a 2026-07-28-only server set `protocol: auto`',
      details: { ...details, reason: 'protocol-version', serverVersion, supportedVersions: [...LEGACY_PROTOCOL_VERSIONS] },
    });
  }
  if (mapped.code === ErrorCode.ServerUnauthorized || mapped.code === ErrorCode.ServerHttpError || mapped.code === ErrorCode.ServerStartFailed || mapped.code === ErrorCode.PolicyViolation) {
    return new SwitchboardError(mapped.code, mapped.message, {
      server,
      operation: mapped.operation ?? operation,
      reason: mapped.reason,
      cause: error,
      ...(mapped.hint === undefined ? {} : { hint: mapped.hint }),
      details: { ...details, ...mapped.details },
    });
  }
  const reason = `failed to start: ${reasonAt(mapped, server)}`;
  return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${server}" ${reason}`, {
    server,
    operation,
    reason,
    cause: error,
    ...(mapped.hint === undefined ? {} : { hint: mapped.hint }),
    details: { ...details, reason: mapped.code, ...mapped.details },
  });
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}
