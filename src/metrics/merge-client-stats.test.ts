import { expect, test } from 'vitest';
import { mergeClientStats } from './merge-client-stats.js';
import { parseClientStats } from './parse-client-stats.js';
import { StatsCollector } from './stats-collector.js';

const states = new Map([['sink', 'ready']]);

test('the stats of one user on two replicas add up: counters summed, latency weighted, timelines by bucket', () => {
  let now = 100_000;
  const a = new StatsCollector(() => now);
  const b = new StatsCollector(() => now);
  const call = (collector: StatsCollector, server: string, tool: string, durationMs: number, ok: boolean): void => {
    collector.callStarted(server, tool);
    collector.callEnded({ server, tool, durationMs, ok, isError: !ok });
  };
  for (let index = 0; index < 3; index++) call(a, 'sink', 'echo', 10, true);
  a.callRefused({ server: 'sink', tool: 'echo', code: 'INVALID_ARGUMENT' });
  now += 1;
  call(b, 'sink', 'echo', 50, false);
  call(b, 'other', 'add', 5, true);
  const merged = mergeClientStats([a.snapshot(states), b.snapshot(states)]);
  const sink = merged.servers.find((server) => server.server === 'sink');
  expect(sink).toMatchObject({ calls: 5, ok: 3, toolErrors: 1, refused: { INVALID_ARGUMENT: 1 } });
  expect(sink?.errorRate).toBeCloseTo(2 / 5);
  expect(sink?.latency).toMatchObject({ count: 4, max: 50, mean: 20 });
  expect(sink?.tools).toHaveLength(1);
  expect(sink?.tools[0]).toMatchObject({ tool: 'echo', calls: 5 });
  expect(sink?.timeline).toEqual([expect.objectContaining({ calls: 5 })]);
  expect(merged.servers.map((server) => server.server).sort()).toEqual(['other', 'sink']);
  expect(merged.refused).toEqual({ INVALID_ARGUMENT: 1 });
  expect(mergeClientStats([a.snapshot(states)])).toEqual(a.snapshot(states));
});

test('a snapshot read back from JSON is checked', () => {
  const stats = new StatsCollector().snapshot(states);
  expect(parseClientStats(JSON.stringify(stats))).toEqual(stats);
  expect(parseClientStats('{"since":1}')).toBeUndefined();
  expect(parseClientStats('nope')).toBeUndefined();
});
