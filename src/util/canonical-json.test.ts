import { expect, test } from 'vitest';
import { canonicalJson } from './canonical-json.js';

test('key order does not matter; values and arrays do', () => {
  expect(canonicalJson({ b: 1, a: { d: [2, { y: 1, x: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"x":0,"y":1}]},"b":1}');
  expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
  expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
});
