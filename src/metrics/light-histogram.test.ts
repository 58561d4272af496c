import { Histogram, Registry } from 'prom-client';
import { expect, test } from 'vitest';
import { LightHistogram } from './light-histogram.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];

/** The exposition of one registry holding `metric`, with default labels. */
async function exposition(register: (registry: Registry) => void): Promise<string> {
  const registry = new Registry();
  registry.setDefaultLabels({ replica: 'r1' });
  register(registry);
  return registry.metrics();
}

test('prints what prom-client\'s own histogram prints for the same observations', async () => {
  const observations: Array<[string, number]> = [['GET', 0.0005], ['POST', 0.001], ['POST', 0.05], ['POST', 3], ['GET', 0.2], ['POST', 0.001]];
  const theirs = await exposition((registry) => {
    const histogram = new Histogram({ name: 'req_seconds', help: 'Request time.', labelNames: ['method'], buckets: BUCKETS, registers: [registry] });
    for (const [method, value] of observations) histogram.observe({ method }, value);
  });
  const ours = await exposition((registry) => {
    const histogram = new LightHistogram({ name: 'req_seconds', help: 'Request time.', buckets: BUCKETS });
    registry.registerMetric(histogram as unknown as Histogram);
    for (const [method, value] of observations) histogram.observe(method, () => ({ method }), value);
  });
  const sorted = (text: string): string[] => text.split('\n').filter((line) => line !== '').sort();
  expect(sorted(ours)).toEqual(sorted(theirs));
  expect(ours).toContain('req_seconds_bucket{le="0.001",replica="r1",method="POST"} 2');
});

test('the label function runs once per series, and reset forgets them', () => {
  const histogram = new LightHistogram({ name: 'h', help: 'h', buckets: BUCKETS });
  let made = 0;
  const labels = (): Record<string, string> => {
    made++;
    return { route: '/mcp' };
  };
  for (let index = 0; index < 5; index++) histogram.observe('/mcp', labels, 0.002);
  expect(made).toBe(1);
  expect(histogram.get().values.find((value) => value.metricName === 'h_count')?.value).toBe(5);
  histogram.reset();
  expect(histogram.get().values).toEqual([]);
});
