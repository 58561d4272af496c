/**
 * @module dashboard/pages/servers-page
 * Every server of the user (own and shared) with its live state, and the add/edit/enable/remove
 * actions on the user's own ones.
 */

import { useState } from 'preact/hooks';
import type { ServerView } from '../../contract/api-contract.js';
import { messageOf, Problem, StaleNotice } from '../components/problem.js';
import { ServerCard } from '../components/server-card.js';
import { ServerForm } from '../components/server-form.js';
import { RunningTasks } from '../components/running-tasks.js';
import { useSession } from '../state/session.js';
import { useLoader, useNow } from '../state/use-loader.js';

/** Reload the numbers while the page is open. @default 5000 */
export const SERVERS_REFRESH_MS = 5_000;

type Editing = { mode: 'add' } | { mode: 'edit'; server: ServerView } | undefined;

export function ServersPage() {
  const { api } = useSession();
  const now = useNow(1000);
  const servers = useLoader(() => api.servers(), ['server-state-change', 'servers-changed', 'tools-changed'], SERVERS_REFRESH_MS);
  const [editing, setEditing] = useState<Editing>(undefined);
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [failure, setFailure] = useState<unknown>(undefined);
  const [notice, setNotice] = useState('');

  const act = async (name: string, action: () => Promise<unknown>, done: string): Promise<void> => {
    setBusy(name);
    setFailure(undefined);
    try {
      await action();
      setNotice(done);
      servers.reload();
    } catch (error) {
      setFailure(error);
      setNotice(`Failed: ${messageOf(error)}`);
    } finally {
      setBusy(undefined);
    }
  };

  // The tab is opened while the click still counts as the person's (a popup blocker would stop a
  // window opened after the request); it is pointed at the authorization server once its URL is known.
  const logIn = (name: string): void => {
    const tab = window.open('', '_blank');
    if (tab !== null) tab.opener = null;
    void act(
      name,
      async () => {
        try {
          const answer = await api.logIn(name);
          if (answer.status !== 'authorize') {
            tab?.close();
            return;
          }
          if (tab === null) window.location.assign(answer.authorizationUrl);
          else tab.location.href = answer.authorizationUrl;
        } catch (error) {
          tab?.close();
          throw error;
        }
      },
      `Logging in to ${name}: finish in the new tab; the server connects when you are done`,
    );
  };

  const list = servers.data?.servers ?? [];
  const ready = list.filter((server) => server.enabled && server.state === 'ready').length;
  return (
    <>
      <div class="toolbar">
        <p class="muted" aria-live="polite">
          {servers.data === undefined ? (servers.loading ? 'Loading servers…' : '') : `${ready} of ${list.length} server${list.length === 1 ? '' : 's'} ready`}
        </p>
        <button type="button" class="primary" onClick={() => setEditing({ mode: 'add' })}>
          Add server
        </button>
      </div>
      <p class="visually-hidden" role="status">
        {notice}
      </p>
      <Problem error={failure ?? (servers.data === undefined ? servers.error : undefined)} />
      <StaleNotice error={servers.error} shown={servers.data !== undefined} />
      {servers.data !== undefined && list.length === 0 ? <p class="empty">No servers yet. Add one, or start the gateway with a config file.</p> : null}
      <div class="card-grid">
        {list.map((server) => (
          <ServerCard
            key={server.name}
            server={server}
            now={now}
            busy={busy === server.name}
            onEdit={() => setEditing({ mode: 'edit', server })}
            onToggle={() => void act(server.name, () => api.updateServer(server.name, { enabled: !server.enabled }), `${server.name} ${server.enabled ? 'disabled' : 'enabled'}`)}
            onRemove={() => void act(server.name, () => api.removeServer(server.name), `${server.name} removed`)}
            onLogIn={() => logIn(server.name)}
          />
        ))}
      </div>
      <RunningTasks />
      {editing === undefined ? null : (
        <ServerForm
          {...(editing.mode === 'edit' ? { server: editing.server } : {})}
          onDone={(saved) => {
            setEditing(undefined);
            if (saved !== undefined) {
              setNotice(`${saved.name} saved`);
              servers.reload();
            }
          }}
        />
      )}
    </>
  );
}
