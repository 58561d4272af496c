import { describe, expect, it } from 'vitest';
import { barRects, linePath, lonePoints, maxOf, niceMax, seriesOf, sumSeries } from './chart-paths.js';

const NOW = 1_000_000_005_000; // 5 s into a bucket
const LAST = 1_000_000_000_000;

describe('seriesOf', () => {
  it('fills the window, quiet buckets as 0 calls and no latency', () => {
    const timeline = [
      { start: LAST - 20_000, calls: 4, errors: 1, p50: 3, p95: 9 },
      { start: LAST, calls: 2, errors: 0, p50: 5, p95: 6 },
    ];
    expect(seriesOf(timeline, 'calls', NOW, 4)).toEqual({ start: LAST - 30_000, bucketMs: 10_000, values: [0, 4, 0, 2] });
    expect(seriesOf(timeline, 'p95', NOW, 4).values).toEqual([null, 9, null, 6]);
    expect(seriesOf(timeline, 'errorRate', NOW, 4).values).toEqual([null, 0.25, null, 0]);
  });

  it('drops buckets older than the window', () => {
    expect(seriesOf([{ start: LAST - 50_000, calls: 9, errors: 0, p50: 1, p95: 1 }], 'calls', NOW, 3).values).toEqual([0, 0, 0]);
  });
});

describe('geometry', () => {
  const series = { start: 0, bucketMs: 10_000, values: [1, 2, null, 4, null] };

  it('draws a line through each bucket middle, breaking at gaps; lone points become dots', () => {
    expect(linePath(series, { width: 100, height: 40 }, 4)).toBe('M10 30L30 20');
    expect(lonePoints(series, { width: 100, height: 40 }, 4)).toEqual([{ x: 70, y: 0, index: 3 }]);
    expect(lonePoints({ ...series, values: [5] }, { width: 10, height: 10 }, 10)).toEqual([{ x: 5, y: 5, index: 0 }]);
    expect(linePath({ ...series, values: [] }, { width: 100, height: 40 }, 4)).toBe('');
  });

  it('draws bars for values above zero', () => {
    const bars = barRects({ start: 0, bucketMs: 1, values: [0, 2, 4] }, { width: 30, height: 10 }, 4, 2);
    expect(bars).toEqual([
      { x: 11, y: 5, width: 8, height: 5, index: 1, value: 2 },
      { x: 21, y: 0, width: 8, height: 10, index: 2, value: 4 },
    ]);
    expect(barRects(series, { width: 30, height: 10 }, 0)).toEqual([]);
  });

  it('sums series and finds round axis maxima', () => {
    const other = { start: 0, bucketMs: 10_000, values: [1, null, null, 1, 3] };
    expect(sumSeries([series, other])?.values).toEqual([2, 2, null, 5, 3]);
    expect(sumSeries([])).toBeUndefined();
    expect(maxOf([series, other])).toBe(4);
    expect([0, 0.3, 1, 1.5, 3, 7, 12, 240, 1001].map(niceMax)).toEqual([1, 0.5, 1, 2, 5, 10, 20, 250, 2000]);
  });
});
