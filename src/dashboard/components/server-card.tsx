/**
 * @module dashboard/components/server-card
 * One server: state, connection facts, numbers, recent calls, its error, and what the user may do.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
import type { ServerView } from '../../contract/api-contract.js';
import { formatCount, formatDuration, formatPercent, formatUptime } from '../model/format.js';
import { refusalSummary } from '../model/refusal-summary.js';
import { hrefOf } from '../state/use-route.js';
import { Sparkline } from './sparkline.js';
import { StateBadge } from './state-badge.js';
import { ToolIcon } from './tool-icon.js';

export interface ServerCardProps {
  server: ServerView;
  now: number;
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onRemove: () => void;
  /** Starts an OAuth login to this server (offered when it refuses the user for want of one). */
  onLogIn: () => void;
}

const KIND_WORDS: Record<string, string> = { url: 'remote URL', stdio: 'local command', template: 'template' };

export function ServerCard({ server, now, busy, onEdit, onToggle, onRemove, onLogIn }: ServerCardProps) {
  const [confirming, setConfirming] = useState(false);
  const keepButton = useRef<HTMLButtonElement>(null);
  const removeButton = useRef<HTMLButtonElement>(null);
  const firstRender = useRef(true);
  // The pressed button is replaced by the question (and back): focus would fall to the page's start.
  // It moves to the safe answer, and back to Remove when the server is kept.
  useEffect(() => {
    if (firstRender.current) firstRender.current = false;
    else (confirming ? keepButton : removeButton).current?.focus();
  }, [confirming]);
  const id = `server-${server.name.replace(/[^\w-]/g, '_')}`;
  const ready = server.enabled && server.state === 'ready';
  const refused = refusalSummary(server.stats.refused);
  return (
    <article class="card server-card" aria-labelledby={`${id}-name`} data-server={server.name}>
      <header class="card-head">
        <h2 id={`${id}-name`}>
          <ToolIcon icons={server.icons} size={20} />
          {server.name}
        </h2>
        <StateBadge state={server.state} enabled={server.enabled} />
      </header>
      <p class="tags">
        <span class="tag">{server.shared ? 'shared' : 'yours'}</span>
        <span class="tag">{KIND_WORDS[server.kind] ?? server.kind}</span>
      </p>
      {server.description === undefined ? null : <p class="muted">{server.description}</p>}
      <dl class="facts">
        <div><dt>Transport</dt><dd>{server.transport ?? '–'}</dd></div>
        <div><dt>Protocol</dt><dd>{server.protocolVersion ?? '–'}</dd></div>
        <div><dt>Uptime</dt><dd>{ready && server.readyAt !== undefined ? formatUptime(server.readyAt, now) : '–'}</dd></div>
        <div><dt>Restarts</dt><dd>{server.restarts}</dd></div>
        <div><dt>Tools</dt><dd><a href={hrefOf('tools', { server: server.name })} aria-label={`${formatCount(server.toolCount, 'tool')} of ${server.name}`}>{server.toolCount}</a></dd></div>
        <div><dt>Calls</dt><dd>{server.stats.calls}</dd></div>
        <div><dt>Refused</dt><dd title={refused.byCode === '' ? undefined : `refused before sending: ${refused.byCode}`}>{refused.total}</dd></div>
        <div><dt>p50</dt><dd>{server.stats.calls === 0 ? '–' : formatDuration(server.stats.latency.p50)}</dd></div>
        <div><dt>p95</dt><dd>{server.stats.calls === 0 ? '–' : formatDuration(server.stats.latency.p95)}</dd></div>
        <div><dt>Error rate</dt><dd class={server.stats.errorRate > 0 ? 'text-bad' : undefined}>{formatPercent(server.stats.errorRate)}</dd></div>
      </dl>
      <Sparkline timeline={server.stats.timeline} now={now} label={`Calls to ${server.name}`} />
      {server.error === undefined ? null : (
        <div class="server-error">
          <p>
            <strong>{server.error.code}</strong>: {server.error.message}
          </p>
          {server.error.hint === undefined ? null : <p class="hint">{server.error.hint}</p>}
          {server.kind === 'url' && server.error.code === 'SERVER_UNAUTHORIZED' ? (
            <button type="button" class="primary" disabled={busy} onClick={onLogIn} aria-label={`Log in to ${server.name}`}>
              Log in
            </button>
          ) : null}
          {server.error.stderr === undefined || server.error.stderr === '' ? null : (
            <details>
              <summary>Server output (stderr)</summary>
              <pre>{server.error.stderr}</pre>
            </details>
          )}
        </div>
      )}
      {server.editable ? (
        <div class="actions">
          {confirming ? (
            <>
              <span>Remove {server.name}?</span>
              <button type="button" class="danger" disabled={busy} onClick={onRemove}>
                Yes, remove
              </button>
              <button type="button" ref={keepButton} onClick={() => setConfirming(false)}>
                Keep it
              </button>
            </>
          ) : (
            <>
              <button type="button" disabled={busy} onClick={onEdit} aria-label={`Edit ${server.name}`}>
                Edit
              </button>
              <button type="button" disabled={busy} onClick={onToggle} aria-label={`${server.enabled ? 'Disable' : 'Enable'} ${server.name}`}>
                {server.enabled ? 'Disable' : 'Enable'}
              </button>
              <button type="button" ref={removeButton} class="danger-quiet" disabled={busy} onClick={() => setConfirming(true)} aria-label={`Remove ${server.name}`}>
                Remove
              </button>
            </>
          )}
        </div>
      ) : null}
    </article>
  );
}
