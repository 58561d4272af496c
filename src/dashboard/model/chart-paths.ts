/**
 * @module dashboard/model/chart-paths
 * Stats timelines turned into SVG geometry. A timeline lists only the buckets that saw calls; charts
 * need every bucket of the window, so quiet buckets are filled in (0 calls; no latency, which breaks
 * the line rather than drawing a false zero).
 */

/** Length of one stats bucket (the gateway's `TIMELINE_BUCKET_MS`). @default 10000 */
export const BUCKET_MS = 10_000;
/** Buckets a chart shows: the last 10 minutes. @default 60 */
export const WINDOW_BUCKETS = 60;

/** One timeline bucket, as `/api/stats` and `/api/servers` send it. */
export interface TimelineBucket {
  start: number;
  calls: number;
  errors: number;
  p50: number;
  p95: number;
}

/** One value per bucket of the window; null where there is nothing to draw. */
export interface Series {
  /** Start of the first bucket (ms since epoch). */
  start: number;
  bucketMs: number;
  values: Array<number | null>;
}

/** What a bucket shows. */
export type Measure = 'calls' | 'errors' | 'errorRate' | 'p50' | 'p95';

/** The window ending with the bucket that holds `now`, one value per bucket. */
export function seriesOf(timeline: readonly TimelineBucket[], measure: Measure, now: number, buckets = WINDOW_BUCKETS, bucketMs = BUCKET_MS): Series {
  const last = now - (now % bucketMs);
  const start = last - (buckets - 1) * bucketMs;
  const byStart = new Map(timeline.map((bucket) => [bucket.start, bucket]));
  const values: Array<number | null> = [];
  for (let index = 0; index < buckets; index++) {
    const bucket = byStart.get(start + index * bucketMs);
    values.push(valueOf(bucket, measure));
  }
  return { start, bucketMs, values };
}

function valueOf(bucket: TimelineBucket | undefined, measure: Measure): number | null {
  if (measure === 'calls' || measure === 'errors') return bucket?.[measure] ?? 0;
  if (bucket === undefined || bucket.calls === 0) return null;
  return measure === 'errorRate' ? bucket.errors / bucket.calls : bucket[measure];
}

/** The sum of several series bucket by bucket (nulls count as nothing; all null stays null). */
export function sumSeries(all: readonly Series[]): Series | undefined {
  const first = all[0];
  if (first === undefined) return undefined;
  const values = first.values.map((_, index) => {
    let total: number | null = null;
    for (const series of all) {
      const value = series.values[index];
      if (value !== null && value !== undefined) total = (total ?? 0) + value;
    }
    return total;
  });
  return { start: first.start, bucketMs: first.bucketMs, values };
}

/** The drawing area of a chart. */
export interface Box {
  width: number;
  height: number;
}

/** A round axis maximum at or above `value` (1, 2, 2.5, 5 × 10^n); 1 for nothing. */
export function niceMax(value: number): number {
  if (!Number.isFinite(value) || value <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (value <= step * power) return step * power;
  }
  return 10 * power;
}

/** The largest value of some series (0 when all are empty). */
export function maxOf(all: readonly Series[]): number {
  let max = 0;
  for (const series of all) for (const value of series.values) if (value !== null && value > max) max = value;
  return max;
}

const round = (value: number): string => String(Math.round(value * 10) / 10);

/**
 * An SVG path through the values, each at the middle of its bucket; a null starts a new segment.
 * Values with no neighbour draw nothing here: {@link lonePoints} marks them.
 */
export function linePath(series: Series, box: Box, max: number): string {
  const commands: string[] = [];
  let open = false;
  series.values.forEach((value, index) => {
    if (value === null) {
      open = false;
      return;
    }
    const next = series.values[index + 1];
    if (!open && (next === null || next === undefined)) return;
    const { x, y } = pointAt(series, index, value, box, max);
    commands.push(`${open ? 'L' : 'M'}${round(x)} ${round(y)}`);
    open = true;
  });
  return commands.join('');
}

/** The values with no neighbour on either side (a line cannot show them: they get a dot). */
export function lonePoints(series: Series, box: Box, max: number): Array<{ x: number; y: number; index: number }> {
  const points: Array<{ x: number; y: number; index: number }> = [];
  series.values.forEach((value, index) => {
    const before = series.values[index - 1];
    const after = series.values[index + 1];
    if (value === null || (before !== null && before !== undefined) || (after !== null && after !== undefined)) return;
    const { x, y } = pointAt(series, index, value, box, max);
    points.push({ x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10, index });
  });
  return points;
}

function pointAt(series: Series, index: number, value: number, box: Box, max: number): { x: number; y: number } {
  const step = box.width / series.values.length;
  const scale = max > 0 ? box.height / max : 0;
  return { x: step * index + step / 2, y: box.height - Math.min(value, max) * scale };
}

/** A bar per bucket with a value above zero. */
export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  /** Index of the bucket. */
  index: number;
  value: number;
}

/** Bars for the values, a gap of `gap` px between neighbours. */
export function barRects(series: Series, box: Box, max: number, gap = 1): Bar[] {
  const count = series.values.length;
  if (count === 0 || max <= 0) return [];
  const step = box.width / count;
  const width = Math.max(step - gap, 0.5);
  const bars: Bar[] = [];
  series.values.forEach((value, index) => {
    if (value === null || value <= 0) return;
    const height = (Math.min(value, max) / max) * box.height;
    bars.push({ x: step * index + (step - width) / 2, y: box.height - height, width, height, index, value });
  });
  return bars;
}
