/**
 * @module dashboard/pages/activity-page
 * The live stream: calls (tool, server, duration, ok/error), server logs and state changes, newest
 * first. Pausing freezes the list (events keep arriving and are counted); filters narrow it.
 */

import { useEffect, useState } from 'preact/hooks';
import { matchesFilter, type ActivityCategory, type ActivityItem } from '../model/activity.js';
import { formatClock, formatDuration } from '../model/format.js';
import { useSession } from '../state/session.js';

/** Lines shown at most (the hub keeps more). @default 300 */
export const ACTIVITY_ROWS = 300;

const CATEGORIES: Array<[ActivityCategory, string]> = [
  ['call', 'Calls'],
  ['log', 'Logs'],
  ['state', 'State changes'],
];

const STATUS_WORDS: Record<ActivityItem['status'], string> = { ok: 'ok', error: 'error', info: 'info', warning: 'warning', running: 'running' };

export function ActivityPage() {
  const { events } = useSession();
  const [items, setItems] = useState<readonly ActivityItem[]>(() => [...events.items]);
  const [paused, setPaused] = useState(false);
  const [missed, setMissed] = useState(0);
  const [categories, setCategories] = useState<ReadonlySet<ActivityCategory>>(new Set(['call', 'log', 'state']));
  const [server, setServer] = useState('');
  const [text, setText] = useState('');
  const [problemsOnly, setProblemsOnly] = useState(false);

  useEffect(() => {
    const unsubscribe = events.onItem(() => {
      if (paused) setMissed((count) => count + 1);
      else setItems([...events.items]);
    });
    // Events may have arrived between the first render and this subscription.
    if (!paused) setItems([...events.items]);
    return unsubscribe;
  }, [events, paused]);

  const resume = (): void => {
    setPaused(false);
    setMissed(0);
    setItems([...events.items]);
  };
  const toggle = (category: ActivityCategory): void => {
    const next = new Set(categories);
    if (next.has(category)) next.delete(category);
    else next.add(category);
    setCategories(next);
  };

  const filter = { categories, server, text, problemsOnly };
  const servers = [...new Set(items.map((item) => item.server).filter((name): name is string => name !== undefined))].sort();
  const shown = items.filter((item) => matchesFilter(item, filter)).slice(-ACTIVITY_ROWS).reverse();
  const latest = shown[0];

  return (
    <>
      <div class="toolbar activity-controls">
        <button type="button" class={paused ? 'primary' : undefined} aria-pressed={paused} onClick={() => (paused ? resume() : setPaused(true))}>
          {paused ? `Resume${missed > 0 ? ` (${missed} new)` : ''}` : 'Pause'}
        </button>
        <button
          type="button"
          class="quiet"
          onClick={() => {
            events.clear();
            setItems([]);
            setMissed(0);
          }}
        >
          Clear
        </button>
        <fieldset class="inline-checks">
          <legend class="visually-hidden">Show</legend>
          {CATEGORIES.map(([category, label]) => (
            <label key={category} class="check">
              <input type="checkbox" checked={categories.has(category)} onChange={() => toggle(category)} />
              {label}
            </label>
          ))}
          <label class="check">
            <input type="checkbox" checked={problemsOnly} onChange={(event) => setProblemsOnly(event.currentTarget.checked)} />
            Problems only
          </label>
        </fieldset>
        <div class="field compact">
          <label for="activity-server">Server</label>
          <select id="activity-server" value={server} onChange={(event) => setServer(event.currentTarget.value)}>
            <option value="">All</option>
            {servers.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <div class="field compact">
          <label for="activity-text">Find</label>
          <input id="activity-text" type="search" value={text} onInput={(event) => setText(event.currentTarget.value)} />
        </div>
      </div>
      {/* The table keeps its table semantics; the newest line is announced through this live region. */}
      <p class="visually-hidden" role="log" aria-live="polite">
        {paused || latest === undefined ? '' : `${latest.server ?? ''} ${latest.summary}${latest.durationMs === undefined ? '' : `, ${formatDuration(latest.durationMs)}`}`}
      </p>
      <p class="muted small">
        {paused ? 'Paused: new events are counted, not shown. ' : ''}
        Showing {shown.length} of {items.length} events, newest first.
      </p>
      <div class="table-scroll">
        <table class="activity">
          <caption class="visually-hidden">Gateway activity, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Kind</th>
              <th scope="col">Server</th>
              <th scope="col">What happened</th>
              <th scope="col">Duration</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((item) => (
              <tr key={item.id} class={`status-${item.status}`} data-event={item.event}>
                <td>
                  <time dateTime={new Date(item.time).toISOString()}>{formatClock(item.time)}</time>
                </td>
                <td>{item.category === 'call' ? 'call' : item.category === 'log' ? 'log' : 'state'}</td>
                <td>{item.server ?? '–'}</td>
                <td class="summary">{item.summary}</td>
                <td>{item.durationMs === undefined ? '' : formatDuration(item.durationMs)}</td>
                <td>
                  <span class={`badge tone-${TONE[item.status]}`}>
                    <span class="dot" aria-hidden="true" />
                    {STATUS_WORDS[item.status]}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown.length === 0 ? <p class="empty">Nothing yet. Calls, logs and state changes appear here as they happen.</p> : null}
    </>
  );
}

const TONE: Record<ActivityItem['status'], string> = { ok: 'good', error: 'bad', info: 'off', warning: 'warn', running: 'pending' };
