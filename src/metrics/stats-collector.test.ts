import { expect, test } from 'vitest';
import { StatsCollector, TIMELINE_BUCKET_MS } from './stats-collector.js';

test('counts, error codes, percentiles and the timeline follow a scripted sequence of calls', () => {
  let now = 1_000_000;
  const stats = new StatsCollector(() => now);
  const call = (tool: string, durationMs: number, outcome: { ok?: boolean; isError?: boolean; errorCode?: string } = {}) => {
    stats.callStarted('s', tool);
    stats.callEnded({ server: 's', tool, durationMs, ok: outcome.ok ?? (outcome.isError !== true && outcome.errorCode === undefined), isError: outcome.isError ?? false, ...(outcome.errorCode === undefined ? {} : { errorCode: outcome.errorCode }) });
  };
  for (let ms = 1; ms <= 20; ms++) call('search', ms);
  call('search', 100, { isError: true });
  call('write', 5_000, { errorCode: 'REQUEST_TIMEOUT' });
  now += TIMELINE_BUCKET_MS;
  call('write', 3, { errorCode: 'REQUEST_CANCELLED' });
  call('write', 4, { errorCode: 'SERVER_DISCONNECTED' });
  stats.callStarted('s', 'search');
  stats.cacheLookup('s', 'search', true);
  stats.cacheLookup('s', 'search', false);
  stats.retried('s', 'write');
  stats.restarted('s');

  const server = stats.snapshot(new Map([['s', 'ready'], ['idle', 'failed']])).servers.find((entry) => entry.server === 's');
  expect(server).toMatchObject({
    state: 'ready',
    calls: 24,
    ok: 20,
    toolErrors: 1,
    errors: { REQUEST_TIMEOUT: 1, REQUEST_CANCELLED: 1, SERVER_DISCONNECTED: 1 },
    timeouts: 1,
    cancellations: 1,
    inFlight: 1,
    cacheHits: 1,
    cacheMisses: 1,
    retries: 1,
    restarts: 1,
    errorRate: 4 / 24,
  });
  const search = server?.tools.find((tool) => tool.tool === 'search');
  expect(search?.latency).toEqual({ count: 21, p50: 11, p95: 20, p99: 100, max: 100, mean: (210 + 100) / 21 });
  expect(server?.timeline.map((point) => [point.calls, point.errors])).toEqual([[22, 2], [2, 2]]);
  expect(stats.snapshot(new Map([['idle', 'failed']])).servers.find((entry) => entry.server === 'idle')).toMatchObject({ state: 'failed', calls: 0 });
});

test('refused calls (never sent) count as calls that failed, by code, without a latency; unattributed ones in the totals', () => {
  const now = 1_000_000;
  const stats = new StatsCollector(() => now);
  stats.callStarted('s', 'sum');
  stats.callEnded({ server: 's', tool: 'sum', durationMs: 5, ok: true, isError: false });
  stats.callRefused({ server: 's', tool: 'sum', code: 'INVALID_ARGUMENT' });
  stats.callRefused({ server: 's', tool: 'sum', code: 'INVALID_ARGUMENT' });
  stats.callRefused({ server: 's', code: 'SERVER_DISCONNECTED' });
  stats.callRefused({ code: 'TOOL_NOT_FOUND' });
  const snapshot = stats.snapshot(new Map([['s', 'ready']]));
  expect(snapshot.refused).toEqual({ INVALID_ARGUMENT: 2, SERVER_DISCONNECTED: 1, TOOL_NOT_FOUND: 1 });
  const server = snapshot.servers.find((entry) => entry.server === 's');
  expect(server).toMatchObject({ calls: 4, ok: 1, refused: { INVALID_ARGUMENT: 2, SERVER_DISCONNECTED: 1 }, errors: { INVALID_ARGUMENT: 2, SERVER_DISCONNECTED: 1 }, errorRate: 3 / 4, inFlight: 0 });
  expect(server?.latency.count).toBe(1);
  expect(server?.timeline.map((point) => [point.calls, point.errors])).toEqual([[4, 3]]);
  expect(server?.tools.find((tool) => tool.tool === 'sum')).toMatchObject({ calls: 3, ok: 1, refused: { INVALID_ARGUMENT: 2 }, errors: { INVALID_ARGUMENT: 2 } });
  expect(snapshot.servers.map((entry) => entry.server)).toEqual(['s']);
});
