/**
 * @module gateway/relay-message
 * The messages of the cluster's event relay on the PostgreSQL channel `switchboard_events` (issue 20),
 * as JSON: `watch` / `unwatch` (the users someone watches on `/api/events` on a replica), `ask` (a
 * replica that just started asks for the `watch` announcements), and `events` (a batch of one
 * replica's user events). A NOTIFY payload must stay under 8000 bytes: {@link packEvents} splits a
 * batch into messages of at most {@link RELAY_MESSAGE_MAX_BYTES}, and an event bigger than
 * {@link RELAYED_EVENT_MAX_BYTES} is trimmed (long strings cut, objects replaced by the start of their
 * JSON) and marked `truncated: true`.
 */

import { isRecord } from './wire-format.js';

/** A relay message's largest size in UTF-8 bytes (PostgreSQL refuses 8000 or more). @default 7900 */
export const RELAY_MESSAGE_MAX_BYTES = 7_900;
/** An event payload bigger than this (UTF-8 bytes of its JSON) is trimmed. @default 2000 */
export const RELAYED_EVENT_MAX_BYTES = 2_000;
/** A trimmed payload keeps this many characters of each long string. @default 240 */
const TRIMMED_STRING_CHARS = 240;

/** The user events a replica relays (`servers-changed` comes from the registry on every replica). */
export const RELAYED_EVENT_NAMES = ['server-state-change', 'tool-call-start', 'tool-call-end', 'tool-call-refused', 'tool-progress', 'server-log', 'tools-changed'] as const;
export type RelayedEventName = (typeof RELAYED_EVENT_NAMES)[number];

/** One user event as relayed. */
export interface RelayedEvent {
  /** The user's id. */
  user: string;
  event: RelayedEventName;
  payload: Record<string, unknown>;
  /** When it happened on its replica (ms since the epoch). */
  time: number;
}

/** A message on the relay channel. */
export type RelayMessage =
  | { kind: 'watch' | 'unwatch'; replica: string; users: string[] }
  | { kind: 'ask'; replica: string }
  | { kind: 'events'; replica: string; events: RelayedEvent[] };

/** The JSON of a `watch`, `unwatch` or `ask` message. */
export function encodeControl(message: Exclude<RelayMessage, { kind: 'events' }>): string {
  return JSON.stringify(message);
}

/**
 * The `events` messages carrying `events` from `replica`, each under {@link RELAY_MESSAGE_MAX_BYTES}
 * (big payloads trimmed first).
 */
export function packEvents(replica: string, events: readonly RelayedEvent[]): string[] {
  const head = `{"kind":"events","replica":${JSON.stringify(replica)},"events":[`;
  const tail = ']}';
  const messages: string[] = [];
  let parts: string[] = [];
  let bytes = Buffer.byteLength(head) + Buffer.byteLength(tail);
  const base = bytes;
  for (const event of events) {
    const json = JSON.stringify({ ...event, payload: trimPayload(event.payload, RELAYED_EVENT_MAX_BYTES) });
    const size = Buffer.byteLength(json) + 1;
    if (parts.length > 0 && bytes + size > RELAY_MESSAGE_MAX_BYTES) {
      messages.push(`${head}${parts.join(',')}${tail}`);
      parts = [];
      bytes = base;
    }
    parts.push(json);
    bytes += size;
  }
  if (parts.length > 0) messages.push(`${head}${parts.join(',')}${tail}`);
  return messages;
}

/** `payload` within `maxBytes` of JSON: as it is when it fits, else trimmed and marked `truncated: true`. */
export function trimPayload(payload: Record<string, unknown>, maxBytes: number): Record<string, unknown> {
  if (Buffer.byteLength(JSON.stringify(payload)) <= maxBytes) return payload;
  const trimmed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === 'string') trimmed[key] = cut(value);
    else if (typeof value === 'object' && value !== null) {
      const json = JSON.stringify(value);
      trimmed[key] = json.length > TRIMMED_STRING_CHARS ? cut(json) : value;
    } else trimmed[key] = value;
  }
  trimmed.truncated = true;
  if (Buffer.byteLength(JSON.stringify(trimmed)) <= maxBytes) return trimmed;
  // Many long fields: keep the numbers, booleans and short strings only.
  const scalars: Record<string, unknown> = { truncated: true };
  for (const [key, value] of Object.entries(payload)) {
    if (typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= 64)) scalars[key] = value;
  }
  return scalars;
}

/** The message in `payload`, or undefined for anything else (another version's, or junk). */
export function parseRelayMessage(payload: string): RelayMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || typeof value.replica !== 'string') return undefined;
  const { kind, replica } = value;
  if (kind === 'ask') return { kind, replica };
  if (kind === 'watch' || kind === 'unwatch') {
    const users = Array.isArray(value.users) ? value.users.filter((user): user is string => typeof user === 'string') : [];
    return { kind, replica, users };
  }
  if (kind !== 'events' || !Array.isArray(value.events)) return undefined;
  const events: RelayedEvent[] = [];
  for (const item of value.events) {
    if (!isRecord(item) || typeof item.user !== 'string' || typeof item.time !== 'number' || !isRecord(item.payload)) continue;
    const event = RELAYED_EVENT_NAMES.find((name) => name === item.event);
    if (event !== undefined) events.push({ user: item.user, event, payload: item.payload, time: item.time });
  }
  return { kind, replica, events };
}

function cut(text: string): string {
  return text.length > TRIMMED_STRING_CHARS ? `${text.slice(0, TRIMMED_STRING_CHARS)}…` : text;
}
