import { expect, test } from 'vitest';
import { innerMap } from './inner-map.js';

test('the inner map is made once per key and then the same one is returned, for a Map and a WeakMap', () => {
  const outer = new Map<string, Map<number, string>>();
  const first = innerMap(outer, 'a');
  first.set(1, 'one');
  expect(innerMap(outer, 'a')).toBe(first);
  expect(innerMap(outer, 'a').get(1)).toBe('one');
  expect(innerMap(outer, 'b')).not.toBe(first);
  expect([...outer.keys()]).toEqual(['a', 'b']);
  const key = {};
  const weak = new WeakMap<object, Map<string, number>>();
  innerMap(weak, key).set('x', 1);
  expect(innerMap(weak, key).get('x')).toBe(1);
});
