import { expect, test } from 'vitest';
import { LazyNameMap } from './lazy-name-map.js';

test('replays the writes in order on the first lookup: set overwrites, setIfAbsent keeps the first', () => {
  const map = new LazyNameMap<number>();
  map.set('a', 1);
  map.setIfAbsent('a', 2);
  map.setIfAbsent('b', 3);
  map.setIfAbsent('b', 4);
  map.set('b', 5);
  expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([1, 5, undefined]);
  // Writes after the first lookup still apply, by the same rules.
  map.setIfAbsent('a', 6);
  map.set('c', 7);
  expect([map.get('a'), map.get('c')]).toEqual([1, 7]);
});
