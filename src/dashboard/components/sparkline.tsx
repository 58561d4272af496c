/**
 * @module dashboard/components/sparkline
 * A small chart of a server's last 5 minutes: calls per 10-second bucket, the failed part in red, with
 * its numbers in words for screen readers.
 */

import { barRects, maxOf, niceMax, seriesOf, type TimelineBucket } from '../model/chart-paths.js';
import { formatCount } from '../model/format.js';

const BOX = { width: 240, height: 36 };
/** Buckets shown: the last 5 minutes (the timeline keeps 10; the Metrics page shows them all). */
const BUCKETS = 30;

export function Sparkline({ timeline, now, label }: { timeline: readonly TimelineBucket[]; now: number; label: string }) {
  const calls = seriesOf(timeline, 'calls', now, BUCKETS);
  const errors = seriesOf(timeline, 'errors', now, BUCKETS);
  const max = niceMax(maxOf([calls]));
  const totalCalls = calls.values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  const totalErrors = errors.values.reduce<number>((sum, value) => sum + (value ?? 0), 0);
  const minutes = Math.round((BUCKETS * calls.bucketMs) / 60_000);
  const description = `${label}: ${formatCount(totalCalls, 'call')}, ${totalErrors} failed, in the last ${minutes} minutes`;
  return (
    <figure class="sparkline">
      <svg viewBox={`0 0 ${BOX.width} ${BOX.height}`} width={BOX.width} height={BOX.height} role="img" aria-label={description}>
        <line x1="0" y1={BOX.height - 0.5} x2={BOX.width} y2={BOX.height - 0.5} class="axis" />
        {barRects(calls, BOX, max).map((bar) => (
          <rect key={`c${bar.index}`} x={bar.x} y={bar.y} width={bar.width} height={bar.height} class="bar-calls" />
        ))}
        {barRects(errors, BOX, max).map((bar) => (
          <rect key={`e${bar.index}`} x={bar.x} y={bar.y} width={bar.width} height={bar.height} class="bar-errors" />
        ))}
      </svg>
      <figcaption class="muted small">
        last {minutes} min: {formatCount(totalCalls, 'call')}{totalErrors > 0 ? <span class="text-bad">, {totalErrors} failed</span> : null}
      </figcaption>
    </figure>
  );
}
