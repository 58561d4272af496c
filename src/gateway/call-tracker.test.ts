import { expect, test } from 'vitest';
import { unwatchAbort, watchAbort } from '../util/abort-watch.js';
import { CallTracker, type CallDownstream } from './call-tracker.js';

const downstream = (era: CallDownstream['era'] = 'legacy'): CallDownstream => ({ key: {}, era, canElicit: false, canSample: false });

test('calls are found by user and server, oldest first, and leave when they end (once)', () => {
  const tracker = new CallTracker();
  const first = tracker.begin('u1', 'github', downstream());
  const second = tracker.begin('u1', 'github', downstream('modern'));
  tracker.begin('u2', 'github', downstream());
  expect(tracker.size).toBe(3);
  expect(tracker.callsTo('u1', 'github').map((call) => call.downstream.era)).toEqual(['legacy', 'modern']);
  expect(tracker.callsTo('u1', 'files')).toEqual([]);
  first.end();
  first.end();
  expect(tracker.size).toBe(2);
  expect(tracker.callsTo('u1', 'github')).toEqual([second.call]);
});

test('a call\'s signal follows the downstream request\'s, and stops following it when the call ends', () => {
  const tracker = new CallTracker();
  const request = new AbortController();
  const { call, end } = tracker.begin('u', 's', downstream(), request.signal);
  request.abort(new Error('client went away'));
  expect(call.abort.signal.aborted).toBe(true);
  const later = new AbortController();
  const other = tracker.begin('u', 's', downstream(), later.signal);
  other.end();
  later.abort();
  expect(other.call.abort.signal.aborted).toBe(false);
  end();
});

test('whenIdle resolves when the last call ends, false at the deadline or when hurried; abortAll cancels', async () => {
  const tracker = new CallTracker();
  expect(await tracker.whenIdle(10)).toBe(true);
  const { call, end } = tracker.begin('u', 's', downstream());
  const idle = tracker.whenIdle(10_000);
  end();
  expect(await idle).toBe(true);
  const again = tracker.begin('u', 's', downstream());
  expect(await tracker.whenIdle(1)).toBe(false);
  const hurry = new AbortController();
  const waiting = tracker.whenIdle(60_000, hurry.signal);
  hurry.abort();
  expect(await waiting).toBe(false);
  tracker.abortAll(new Error('shutting down'));
  expect(again.call.abort.signal.aborted).toBe(true);
  expect(call.abort.signal.aborted).toBe(false);
  again.end();
});

test('a reusable controller serves a later call only when it never aborted and kept no listener', () => {
  const tracker = new CallTracker();
  const clean = tracker.begin('u', 's', downstream(), undefined, true);
  clean.end();
  expect(tracker.begin('u', 's', downstream(), undefined, true).call.abort).toBe(clean.call.abort);

  const aborted = tracker.begin('u', 's', downstream(), undefined, true);
  const listened = tracker.begin('u', 's', downstream(), undefined, true);
  const notReusable = tracker.begin('u', 's', downstream());
  aborted.call.abort.abort(new Error('cancelled'));
  listened.call.abort.signal.addEventListener('abort', () => {});
  for (const used of [aborted, listened, notReusable]) used.end();
  const next = tracker.begin('u', 's', downstream(), undefined, true).call.abort;
  for (const used of [aborted, listened, notReusable]) expect(next).not.toBe(used.call.abort);
  expect(next.signal.aborted).toBe(false);
});

test('a controller whose requests stopped watching it is reused; one still watched is not', () => {
  const tracker = new CallTracker();
  const request = { handleEvent: () => {} };
  const settled = tracker.begin('u', 's', downstream(), undefined, true);
  watchAbort(settled.call.abort.signal, request);
  unwatchAbort(settled.call.abort.signal, request);
  settled.end();
  const reused = tracker.begin('u', 's', downstream(), undefined, true);
  expect(reused.call.abort).toBe(settled.call.abort);
  watchAbort(reused.call.abort.signal, request);
  reused.end();
  expect(tracker.begin('u', 's', downstream(), undefined, true).call.abort).not.toBe(reused.call.abort);
});
