import { expect, test } from 'vitest';
import { pageOf } from './page-of.js';

test('pages are clamped, 1-based, and the last one is partial', () => {
  const items = Array.from({ length: 250 }, (_, index) => index);
  expect(pageOf(items, 1, 100)).toMatchObject({ page: 1, pages: 3, start: 1, end: 100 });
  expect(pageOf(items, 3, 100)).toMatchObject({ page: 3, pages: 3, start: 201, end: 250, items: items.slice(200) });
  expect(pageOf(items, 99, 100).page).toBe(3);
  expect(pageOf(items, Number.NaN, 100).page).toBe(1);
  expect(pageOf([], 2, 100)).toMatchObject({ page: 1, pages: 1, start: 0, end: 0, items: [] });
});
