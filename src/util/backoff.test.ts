import { expect, test } from 'vitest';
import { backoffDelay } from './backoff.js';

test('doubles from the initial delay up to the cap', () => {
  const exact = { initialMs: 100, maxMs: 1_000, jitter: 0 };
  expect([0, 1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, exact))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
});

test('jitter spreads the delay within ±jitter', () => {
  expect(backoffDelay(1, { initialMs: 100, maxMs: 1_000, jitter: 0.5, random: () => 0 })).toBe(100);
  expect(backoffDelay(1, { initialMs: 100, maxMs: 1_000, jitter: 0.5, random: () => 1 })).toBe(300);
  expect(backoffDelay(1, { initialMs: 100, maxMs: 1_000, random: () => 0.5 })).toBe(200);
});
