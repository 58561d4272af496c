/**
 * @module dashboard/pages/clients-page
 * The MCP clients (Claude, VS Code, an SDK…) that the signed-in user let in over OAuth, with what
 * they may do and since when; "Revoke" ends a client's access at once (its tokens stop). An admin can
 * show everyone's. The names come from the clients' own metadata: rendered as text, never as markup.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import type { AuthorizedClientView } from '../../contract/api-contract.js';
import { Problem, StaleNotice } from '../components/problem.js';
import { useSession } from '../state/session.js';
import { useLoader } from '../state/use-loader.js';

function ClientRow({ client, showUser, onRevoked }: { client: AuthorizedClientView; showUser: boolean; onRevoked: () => void }) {
  const { api } = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const name = client.clientName ?? client.clientId;
  const revoke = (): void => {
    setBusy(true);
    api.revokeClient(client.grantId).then(
      () => onRevoked(),
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };
  return (
    <tr>
      <th scope="row">
        {name}
        {client.clientName === undefined ? null : <div class="muted small">{client.clientId}</div>}
      </th>
      {showUser ? <td>{client.userName}</td> : null}
      <td>{client.redirectHost ?? '—'}</td>
      <td>{client.scopes.join(', ') || '—'}</td>
      <td>{new Date(client.createdAt).toLocaleString()}</td>
      <td>
        <button type="button" class="danger-quiet" disabled={busy} onClick={revoke} aria-label={`Revoke ${name}`}>
          Revoke
        </button>
        <Problem error={error} />
      </td>
    </tr>
  );
}

export function ClientsPage() {
  const { api, user } = useSession();
  const [everyone, setEveryone] = useState(false);
  const loaded = useLoader(() => api.authorizedClients(everyone), []);
  const clients = loaded.data?.clients ?? [];
  const first = useRef(true);
  useEffect(() => {
    // The loader loaded once on mount; a change of the switch loads the other list.
    if (first.current) first.current = false;
    else loaded.reload();
  }, [everyone]);
  return (
    <section aria-labelledby="clients-caption">
      <p>
        MCP clients you let in with “Allow”. Revoking one ends its access at once; it has to ask you again.
      </p>
      {user.admin ? (
        <label class="inline">
          <input type="checkbox" checked={everyone} onChange={() => setEveryone(!everyone)} /> Show every user’s clients
        </label>
      ) : null}
      <Problem error={loaded.error} />
      <StaleNotice error={loaded.error} shown={loaded.data !== undefined} />
      {loaded.data !== undefined && clients.length === 0 ? <p>{everyone ? 'No user has authorized a client yet.' : 'You have not authorized any client yet.'}</p> : null}
      {clients.length === 0 ? null : (
        <div class="table-scroll">
          <table>
            <caption id="clients-caption">Authorized clients</caption>
            <thead>
              <tr>
                <th scope="col">Client</th>
                {everyone ? <th scope="col">User</th> : null}
                <th scope="col">Sends back to</th>
                <th scope="col">Access</th>
                <th scope="col">Authorized</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {clients.map((client) => (
                <ClientRow key={client.grantId} client={client} showUser={everyone} onRevoked={loaded.reload} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
