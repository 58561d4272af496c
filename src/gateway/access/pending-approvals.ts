/**
 * @module gateway/access/pending-approvals
 * Calls waiting for a human: on an endpoint with `approval.writes`, a tool without `readOnlyHint`
 * waits here until someone approves or denies it on the dashboard (`/api/approvals`), the timeout
 * refuses it, or its caller gives up. Held in this process's memory: the dashboard (or
 * `switchboard approvals`) of the replica that holds a call decides it — see docs/endpoints.md,
 * "Where a waiting call lives".
 */

import { TypedEmitter } from '../../util/typed-emitter.js';
import type { ApprovalView } from '../../contract/api-contract.js';
import { newRequestKey } from './request-key.js';

/** A call waiting for a decision, as `GET /api/approvals` answers it and the dashboard shows it. */
export type PendingApproval = ApprovalView;

/** How a wait ended. */
export type ApprovalOutcome = { decision: 'approved' | 'denied'; by: string } | { decision: 'timeout' } | { decision: 'cancelled' };

/** Events of {@link PendingApprovals}. */
export interface PendingApprovalsEvents {
  added: PendingApproval;
  settled: { id: string; outcome: ApprovalOutcome };
}

interface Waiting {
  approval: PendingApproval;
  settle: (outcome: ApprovalOutcome) => void;
}

/** The calls waiting for approval. */
export class PendingApprovals extends TypedEmitter<PendingApprovalsEvents> {
  readonly #waiting = new Map<string, Waiting>();

  /** Waits for a decision on one call; never rejects. */
  wait(request: Omit<PendingApproval, 'id' | 'createdAt' | 'expiresAt'>, timeoutMs: number, signal?: AbortSignal): Promise<ApprovalOutcome> {
    const id = newRequestKey();
    const now = Date.now();
    const approval: PendingApproval = { ...request, id, createdAt: new Date(now).toISOString(), expiresAt: new Date(now + timeoutMs).toISOString() };
    return new Promise<ApprovalOutcome>((resolve) => {
      const onAbort = (): void => settle({ decision: 'cancelled' });
      const timer = setTimeout(() => settle({ decision: 'timeout' }), timeoutMs);
      timer.unref();
      const settle = (outcome: ApprovalOutcome): void => {
        if (!this.#waiting.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.emit('settled', { id, outcome });
        resolve(outcome);
      };
      this.#waiting.set(id, { approval, settle });
      if (signal?.aborted === true) return settle({ decision: 'cancelled' });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.emit('added', approval);
    });
  }

  /** The calls waiting now, oldest first. */
  list(): PendingApproval[] {
    return [...this.#waiting.values()].map((waiting) => waiting.approval);
  }

  /** Approves or denies a waiting call; false when it is no longer waiting. */
  decide(id: string, approve: boolean, by: string): boolean {
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return false;
    waiting.settle({ decision: approve ? 'approved' : 'denied', by });
    return true;
  }

  /** Refuses every waiting call (shutdown). */
  close(): void {
    for (const waiting of [...this.#waiting.values()]) waiting.settle({ decision: 'cancelled' });
    this.removeAllListeners();
  }
}
