import { expect, test } from 'vitest';
import { LatencyWindow, rank } from './latency-window.js';

test('nearest-rank percentiles of a scripted sequence', () => {
  const window = new LatencyWindow();
  for (let ms = 1; ms <= 100; ms++) window.record(ms);
  expect(window.summary()).toEqual({ count: 100, p50: 50, p95: 95, p99: 99, max: 100, mean: 50.5 });
});

test('the window keeps only the last N samples', () => {
  const window = new LatencyWindow(4);
  for (const ms of [1000, 1000, 1, 2, 3, 4]) window.record(ms);
  expect(window.summary()).toMatchObject({ count: 4, max: 4, p50: 2 });
});

test('empty and single', () => {
  expect(new LatencyWindow().summary()).toEqual({ count: 0, p50: 0, p95: 0, p99: 0, max: 0, mean: 0 });
  expect(rank([7], 0.99)).toBe(7);
});
