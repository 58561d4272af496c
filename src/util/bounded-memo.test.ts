import { expect, test } from 'vitest';
import { BoundedMemo } from './bounded-memo.js';

test('computes once per key, absent values included, and starts over past its bound', () => {
  let computed = 0;
  const memo = new BoundedMemo<string>(3);
  const upper = (key: string | null): string => memo.get(key, () => {
    computed++;
    return key === null ? '(none)' : key.toUpperCase();
  });
  expect([upper('a'), upper('a'), upper(null), upper(null)]).toEqual(['A', 'A', '(none)', '(none)']);
  expect(computed).toBe(2);
  upper('b');
  upper('c'); // the fourth key: the memo starts over with it
  expect(computed).toBe(4);
  upper('a');
  expect(computed).toBe(5);
  upper('c');
  expect(computed).toBe(5);
});
