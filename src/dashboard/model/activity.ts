/**
 * @module dashboard/model/activity
 * Gateway events (`/api/events`) turned into the lines of the Activity page, and the page's filter.
 */

import { isRecord } from './is-record.js';

/** The event names the gateway streams. */
export const EVENT_NAMES = ['server-state-change', 'tool-call-start', 'tool-call-end', 'tool-call-refused', 'tool-progress', 'server-log', 'tools-changed', 'servers-changed'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** The groups the Activity filter offers. */
export type ActivityCategory = 'call' | 'log' | 'state';

/** One line of the Activity page. */
export interface ActivityItem {
  /** Increasing, unique within a page load (a list key). */
  id: number;
  time: number;
  event: EventName;
  category: ActivityCategory;
  /** The call this line belongs to (calls and their progress). */
  callId?: number;
  server?: string;
  tool?: string;
  /** The gateway replica the event happened on (a cluster only; the first 8 characters are shown). */
  replica?: string;
  /** `ok`, `error` (isError or failure), or a state/log level for colouring. */
  status: 'ok' | 'error' | 'info' | 'warning' | 'running';
  summary: string;
  durationMs?: number;
}

const CATEGORY: Record<EventName, ActivityCategory> = {
  'server-state-change': 'state',
  'tool-call-start': 'call',
  'tool-call-end': 'call',
  'tool-call-refused': 'call',
  'tool-progress': 'call',
  'server-log': 'log',
  'tools-changed': 'state',
  'servers-changed': 'state',
};

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The Activity line of an event (payload as sent; `time` added by the gateway), or undefined for junk. */
export function activityOf(event: EventName, payload: unknown, id: number, receivedAt: number): ActivityItem | undefined {
  const item = lineOf(event, payload, id, receivedAt);
  const replica = isRecord(payload) ? text(payload.replica) : undefined;
  // In a cluster every line says which replica it happened on.
  return item === undefined || replica === undefined ? item : { ...item, replica, summary: `${item.summary} · replica ${replica.slice(0, 8)}` };
}

function lineOf(event: EventName, payload: unknown, id: number, receivedAt: number): ActivityItem | undefined {
  if (!isRecord(payload)) return undefined;
  const time = typeof payload.time === 'number' ? payload.time : receivedAt;
  const server = text(payload.server);
  const callId = typeof payload.callId === 'number' ? payload.callId : undefined;
  const base = { id, time, event, category: CATEGORY[event], ...(callId !== undefined ? { callId } : {}), ...(server ? { server } : {}) };
  switch (event) {
    case 'tool-call-end': {
      const ok = payload.ok === true;
      const durationMs = typeof payload.durationMs === 'number' ? payload.durationMs : undefined;
      const tool = text(payload.name) ?? text(payload.originalName);
      const how = ok ? 'ok' : payload.isError === true ? 'tool reported an error' : `failed${text(payload.errorCode) ? ` (${String(payload.errorCode)})` : ''}`;
      return { ...base, ...(tool ? { tool } : {}), status: ok ? 'ok' : 'error', summary: `${tool ?? 'tool'} — ${how}`, ...(durationMs !== undefined ? { durationMs } : {}) };
    }
    case 'tool-call-refused': {
      // Refused before anything was sent (invalid arguments, no such tool, its server not up).
      const tool = text(payload.name) ?? text(payload.originalName);
      return { ...base, ...(tool ? { tool } : {}), status: 'error', summary: `${tool ?? 'tool'} — refused${text(payload.errorCode) ? ` (${String(payload.errorCode)})` : ''}, not sent` };
    }
    case 'tool-call-start': {
      const tool = text(payload.name) ?? text(payload.originalName);
      return { ...base, ...(tool ? { tool } : {}), status: 'running', summary: `${tool ?? 'tool'} — started` };
    }
    case 'tool-progress': {
      const tool = text(payload.name);
      const progress = typeof payload.progress === 'number' ? payload.progress : undefined;
      const total = typeof payload.total === 'number' ? `/${payload.total}` : '';
      const message = text(payload.message) ? `: ${String(payload.message)}` : '';
      return { ...base, ...(tool ? { tool } : {}), status: 'running', summary: `${tool ?? 'tool'} — progress ${progress ?? '?'}${total}${message}` };
    }
    case 'server-log': {
      const level = text(payload.level) ?? 'info';
      const data = typeof payload.data === 'string' ? payload.data : JSON.stringify(payload.data);
      const warning = ['warning', 'error', 'critical', 'alert', 'emergency'].includes(level);
      const source = payload.source === 'stderr' ? 'stderr' : level;
      return { ...base, status: warning ? (level === 'warning' ? 'warning' : 'error') : 'info', summary: `[${source}] ${data ?? ''}` };
    }
    case 'server-state-change': {
      const from = text(payload.from) ?? '?';
      const to = text(payload.to) ?? '?';
      const error = isRecord(payload.error) && typeof payload.error.message === 'string' ? `: ${payload.error.message}` : '';
      const status = to === 'ready' ? 'ok' : to === 'failed' ? 'error' : to === 'degraded' || to === 'reconnecting' ? 'warning' : 'info';
      return { ...base, status, summary: `${from} → ${to}${error}` };
    }
    case 'tools-changed': {
      const added = Array.isArray(payload.added) ? payload.added.length : 0;
      const removed = Array.isArray(payload.removed) ? payload.removed.length : 0;
      const reason = text(payload.reason);
      return { ...base, status: 'info', summary: `tools changed${reason ? ` (${reason})` : ''}: ${added} added, ${removed} removed` };
    }
    case 'servers-changed': {
      const action = text(payload.action);
      const name = text(payload.name);
      return { ...base, status: 'info', summary: `servers changed${action ? `: ${action}` : ''}${name ? ` ${name}` : ''}` };
    }
  }
}

/** What the Activity page shows. */
export interface ActivityFilter {
  categories: ReadonlySet<ActivityCategory>;
  /** A server name, or '' for all. */
  server: string;
  /** Case-insensitive text to find in the line. */
  text: string;
  /** Only failed calls and warnings. */
  problemsOnly: boolean;
}

/** True when the filter keeps the item. */
export function matchesFilter(item: ActivityItem, filter: ActivityFilter): boolean {
  if (!filter.categories.has(item.category)) return false;
  if (filter.server !== '' && item.server !== filter.server) return false;
  if (filter.problemsOnly && item.status !== 'error' && item.status !== 'warning') return false;
  const needle = filter.text.trim().toLowerCase();
  if (needle === '') return true;
  return [item.summary, item.server ?? '', item.tool ?? '', item.event].some((field) => field.toLowerCase().includes(needle));
}

/**
 * Adds an item to the kept lines. A call's end replaces the lines of its start and progress, so a
 * finished call is one line (with its outcome and duration), not three.
 */
export function appendActivity(items: ActivityItem[], item: ActivityItem, limit: number): void {
  if (item.event === 'tool-call-end' && item.callId !== undefined) {
    for (let index = items.length - 1; index >= 0; index--) {
      const earlier = items[index];
      if (earlier !== undefined && earlier.callId === item.callId && earlier.server === item.server && earlier.replica === item.replica && earlier.event !== 'tool-call-end') items.splice(index, 1);
    }
  }
  items.push(item);
  if (items.length > limit) items.splice(0, items.length - limit);
}
