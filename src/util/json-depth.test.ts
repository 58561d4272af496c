import { expect, test } from 'vitest';
import { deeperThan } from './json-depth.js';

/** `[[[…]]]` `levels` deep, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

test('counts the levels of arrays and objects, leaves not', () => {
  expect(deeperThan('text', 0)).toBe(false);
  expect(deeperThan({}, 0)).toBe(true);
  expect(deeperThan(nested(3), 3)).toBe(false);
  expect(deeperThan(nested(4), 3)).toBe(true);
  expect(deeperThan({ wide: Array.from({ length: 10_000 }, (_, index) => ({ index })) }, 3)).toBe(false);
  expect(deeperThan({ wide: Array.from({ length: 10_000 }, (_, index) => ({ index })) }, 2)).toBe(true);
});

test('a value nested 100,000 levels deep is found without overflowing the stack', () => {
  expect(deeperThan(nested(100_000), 64)).toBe(true);
});
