/**
 * @module connection/open-within-deadline
 * One start attempt of a link: a start slot (stdio), then transport and handshake within the
 * deadline (counted from the spawn), and on failure the error explained (waiting briefly for a dying
 * process's exit status, so it can be reported).
 */

import type { ServerSpec } from '../config/server-spec.js';
import type { SwitchboardError } from '../errors.js';
import type { ServerLink } from './server-link.js';
import { sharedStartLimiter, type StartLimiter } from './start-limiter.js';
import { DeadlineExceeded, explainStartError, isConnectionLoss } from './start-error.js';
import { startWithinDeadline, type StartTiming } from './start-within-deadline.js';

/** How long a start-up failure waits for the child's exit status, to report it. */
const EXIT_STATUS_WAIT_MS = 500;

/** Options of {@link openWithinDeadline}. */
export interface OpenAttempt {
  spec: ServerSpec;
  deadlineMs: number;
  /** @default sharedStartLimiter() (stdio only) */
  limiter: StartLimiter | undefined;
  /** Aborted by the deadline, by `signal`, or by the owner (close). */
  abort: AbortController;
  signal: AbortSignal | undefined;
  /** The error to fail with when the owner closed meanwhile, else undefined. */
  closed: () => SwitchboardError | undefined;
  onTiming: (timing: StartTiming) => void;
}

/** Opens `link`; rejects with an explained start-up error (the caller tears the link down). */
export async function openWithinDeadline(link: ServerLink, attempt: OpenAttempt): Promise<void> {
  const { spec, abort, signal } = attempt;
  const onOuterAbort = (): void => abort.abort(signal?.reason);
  signal?.addEventListener('abort', onOuterAbort, { once: true });
  try {
    await startWithinDeadline(
      {
        limiter: spec.type === 'stdio' ? (attempt.limiter ?? sharedStartLimiter()) : undefined,
        deadlineMs: attempt.deadlineMs,
        abort,
        deadlineError: () => new DeadlineExceeded(),
        onTiming: attempt.onTiming,
      },
      () => link.open(abort.signal, attempt.deadlineMs),
    );
    const closed = attempt.closed();
    if (closed !== undefined) throw closed;
  } catch (error) {
    // A server that dies at start closes stdout a moment before its exit status is known.
    const stdio = link.stdio;
    if (stdio !== undefined && !(abort.signal.reason instanceof DeadlineExceeded) && isConnectionLoss(error)) await stdio.waitForExit(EXIT_STATUS_WAIT_MS);
    // A link this side dropped says why (its transport's own error only says that it closed).
    throw attempt.closed() ?? explainStartError(link.dropped ?? error, { spec, stdio, transportKind: link.transportKind, deadlineMs: attempt.deadlineMs, abortReason: abort.signal.reason });
  } finally {
    signal?.removeEventListener('abort', onOuterAbort);
  }
}
