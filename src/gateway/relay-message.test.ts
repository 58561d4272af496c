import { expect, test } from 'vitest';
import { encodeControl, packEvents, parseRelayMessage, RELAY_MESSAGE_MAX_BYTES, RELAYED_EVENT_MAX_BYTES, trimPayload, type RelayedEvent } from './relay-message.js';

const call = (index: number): RelayedEvent => ({ user: 'u1', event: 'tool-call-end', payload: { callId: index, name: 'echo', server: 'sink', originalName: 'echo', durationMs: 2, ok: true, isError: false }, time: 1_000 + index });

test('a batch is packed into as few messages as fit under 8000 bytes, and reads back whole', () => {
  const events = Array.from({ length: 500 }, (_, index) => call(index));
  const messages = packEvents('replica-a', events);
  expect(messages.length).toBeGreaterThan(1);
  expect(messages.length).toBeLessThan(20);
  for (const message of messages) expect(Buffer.byteLength(message)).toBeLessThanOrEqual(RELAY_MESSAGE_MAX_BYTES);
  const back = messages.map(parseRelayMessage).flatMap((message) => (message?.kind === 'events' ? message.events : []));
  expect(back).toEqual(events);
  expect(parseRelayMessage(messages[0] ?? '')).toMatchObject({ kind: 'events', replica: 'replica-a' });
});

test('a big payload is trimmed under its budget and says so; small ones pass untouched', () => {
  const log: RelayedEvent = { user: 'u1', event: 'server-log', payload: { server: 'sink', level: 'info', data: { lines: 'é'.repeat(20_000) }, source: 'mcp' }, time: 1 };
  const [message] = packEvents('r', [log]);
  const parsed = parseRelayMessage(message ?? '');
  const payload = parsed?.kind === 'events' ? parsed.events[0]?.payload : undefined;
  expect(payload).toMatchObject({ server: 'sink', level: 'info', source: 'mcp', truncated: true });
  expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThanOrEqual(RELAYED_EVENT_MAX_BYTES);
  expect(trimPayload(call(1).payload, RELAYED_EVENT_MAX_BYTES)).toEqual(call(1).payload);
  const wide = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`field${index}`, 'x'.repeat(500)]));
  const trimmed = trimPayload({ ...wide, callId: 3 }, RELAYED_EVENT_MAX_BYTES);
  expect(trimmed).toEqual({ truncated: true, callId: 3 });
});

test('control messages round-trip; junk and unknown event names are ignored', () => {
  expect(parseRelayMessage(encodeControl({ kind: 'watch', replica: 'r', users: ['a', 'b'] }))).toEqual({ kind: 'watch', replica: 'r', users: ['a', 'b'] });
  expect(parseRelayMessage(encodeControl({ kind: 'ask', replica: 'r' }))).toEqual({ kind: 'ask', replica: 'r' });
  expect(parseRelayMessage('not json')).toBeUndefined();
  expect(parseRelayMessage('{"kind":"events"}')).toBeUndefined();
  expect(parseRelayMessage('{"kind":"events","replica":"r","events":[{"user":"u","event":"nope","payload":{},"time":1}]}')).toEqual({ kind: 'events', replica: 'r', events: [] });
});
