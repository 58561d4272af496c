/**
 * @module dashboard/pages/approvals-page
 * Calls waiting for a person (endpoints with approval for writes): who, which tool on which
 * endpoint, the arguments, and Approve / Deny. The list is read again every second, so a call that
 * timed out or was decided elsewhere leaves it.
 */

import { useState } from 'preact/hooks';
import type { ApprovalView } from '../../contract/api-contract.js';
import { messageOf, Problem } from '../components/problem.js';
import { useSession } from '../state/session.js';
import { useLoader } from '../state/use-loader.js';

/** How often the waiting calls are read again. @default 1000 */
export const APPROVALS_REFRESH_MS = 1_000;

export function ApprovalsPage() {
  const { api, user } = useSession();
  const pending = useLoader(() => (user.admin ? api.approvals() : Promise.resolve({ approvals: [] as ApprovalView[] })), [], APPROVALS_REFRESH_MS);
  const [notice, setNotice] = useState('');
  const [failure, setFailure] = useState<unknown>(undefined);
  if (!user.admin) return <p>Only administrators decide calls that wait for approval.</p>;

  const decide = async (approval: ApprovalView, approve: boolean): Promise<void> => {
    setFailure(undefined);
    try {
      await api.decideApproval(approval.id, approve);
      setNotice(`${approve ? 'Approved' : 'Denied'}: ${approval.tool} for ${approval.user}`);
    } catch (error) {
      setFailure(error);
      setNotice(`Failed: ${messageOf(error)}`);
    }
    pending.reload();
  };

  const list = pending.data?.approvals ?? [];
  return (
    <section aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">Waiting for approval</h2>
      <p class="sr-only" role="status">{notice}</p>
      {notice === '' ? null : <p class="notice">{notice}</p>}
      <Problem error={failure ?? pending.error} />
      {list.length === 0 ? <p class="empty">No call is waiting.</p> : null}
      <ul class="approvals">
        {list.map((approval) => (
          <li key={approval.id} class="card approval" aria-label={`${approval.tool} by ${approval.user}`}>
            <p>
              <strong>{approval.user}</strong> wants to call <code>{approval.tool}</code> (server {approval.server}) on endpoint <code>{approval.endpoint}</code>
            </p>
            <pre class="arguments">{JSON.stringify(approval.arguments, null, 2)}</pre>
            <p class="hint">Refused automatically at {new Date(approval.expiresAt).toLocaleTimeString()}</p>
            <div class="actions">
              <button type="button" onClick={() => void decide(approval, true)}>Approve</button>
              <button type="button" class="danger" onClick={() => void decide(approval, false)}>Deny</button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
