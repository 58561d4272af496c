import { getEventListeners } from 'node:events';
import { expect, test } from 'vitest';
import { isUnwatched, unwatchAbort, watchAbort } from './abort-watch.js';

const watcher = (told: string[], name: string): { handleEvent: () => void } => ({ handleEvent: () => told.push(name) });

test('every watcher still watching is told once when the signal aborts; one that left is not', () => {
  const controller = new AbortController();
  const told: string[] = [];
  const [first, second, gone] = [watcher(told, 'first'), watcher(told, 'second'), watcher(told, 'gone')];
  watchAbort(controller.signal, first);
  watchAbort(controller.signal, gone);
  watchAbort(controller.signal, second);
  unwatchAbort(controller.signal, gone);
  controller.abort(new Error('cancelled'));
  controller.abort(new Error('again'));
  expect(told).toEqual(['first', 'second']);
});

test('a signal gets one listener however many requests watch it in turn', () => {
  const controller = new AbortController();
  const told: string[] = [];
  for (let index = 0; index < 5; index++) {
    const request = watcher(told, `r${index}`);
    watchAbort(controller.signal, request);
    unwatchAbort(controller.signal, request);
  }
  const last = watcher(told, 'last');
  watchAbort(controller.signal, last);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
  controller.abort();
  expect(told).toEqual(['last']);
});

test('a watcher told may stop another from watching: the abort reaches all that were watching', () => {
  const controller = new AbortController();
  const told: string[] = [];
  const second = watcher(told, 'second');
  watchAbort(controller.signal, { handleEvent: () => (told.push('first'), unwatchAbort(controller.signal, second)) });
  watchAbort(controller.signal, second);
  controller.abort();
  expect(told).toEqual(['first', 'second']);
});

test('isUnwatched: no watcher here and no listener of anyone else', () => {
  const controller = new AbortController();
  const request = watcher([], 'r');
  expect(isUnwatched(controller.signal)).toBe(true);
  watchAbort(controller.signal, request);
  expect(isUnwatched(controller.signal)).toBe(false);
  unwatchAbort(controller.signal, request);
  expect(isUnwatched(controller.signal)).toBe(true);
  controller.signal.addEventListener('abort', () => {});
  expect(isUnwatched(controller.signal)).toBe(false);
});

test('watchers past the first: the first leaving keeps the others watching, and a new one joins them', () => {
  const controller = new AbortController();
  const told: string[] = [];
  const [first, second, third] = [watcher(told, 'first'), watcher(told, 'second'), watcher(told, 'third')];
  watchAbort(controller.signal, first);
  watchAbort(controller.signal, second);
  unwatchAbort(controller.signal, first);
  expect(isUnwatched(controller.signal)).toBe(false);
  watchAbort(controller.signal, third);
  unwatchAbort(controller.signal, first);
  controller.abort();
  expect(told.sort()).toEqual(['second', 'third']);
});
