import { expect, test } from 'vitest';
import { Sparkline } from './sparkline.js';

/** The text a rendered tree shows (Sparkline uses no hooks, so calling it renders it). */
function textOf(node: unknown): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (typeof node === 'object' && node !== null && 'props' in node) {
    const { props, type } = node as { props: { children?: unknown }; type: unknown };
    if (typeof type === 'function') return textOf((type as (props: unknown) => unknown)(props));
    return textOf(props.children);
  }
  return '';
}

test('the caption says "1 call", not "1 calls"', () => {
  // A bucket of the window: buckets start at multiples of 10 s.
  const now = 1_000_000_005_000;
  const start = now - 5_000;
  const one = Sparkline({ timeline: [{ start, calls: 1, errors: 0, p50: 3, p95: 3 }], now, label: 'Calls to demo' });
  expect(textOf(one)).toContain('last 5 min: 1 call');
  expect(textOf(one)).not.toContain('1 calls');
  const two = Sparkline({ timeline: [{ start, calls: 2, errors: 1, p50: 3, p95: 3 }], now, label: 'Calls to demo' });
  expect(textOf(two)).toContain('last 5 min: 2 calls, 1 failed');
});
