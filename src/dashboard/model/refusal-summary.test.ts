import { expect, test } from 'vitest';
import { StatsCollector } from '../../metrics/stats-collector.js';
import { refusalSummary, refusalsOfNoServer } from './refusal-summary.js';

test('a total and its codes, most first; nothing for stats without refusals', () => {
  expect(refusalSummary({ TOOL_NOT_FOUND: 1, INVALID_ARGUMENT: 2, SERVER_DISCONNECTED: 1 })).toEqual({ total: 4, byCode: 'INVALID_ARGUMENT × 2, SERVER_DISCONNECTED × 1, TOOL_NOT_FOUND × 1' });
  expect(refusalSummary({})).toEqual({ total: 0, byCode: '' });
  expect(refusalSummary(undefined)).toEqual({ total: 0, byCode: '' });
});

test('the refusals of no server are those of unknown names', () => {
  const stats = new StatsCollector(() => 1_000_000);
  stats.callRefused({ server: 'sink', tool: 'add', code: 'INVALID_ARGUMENT' });
  stats.callRefused({ server: 'sink', code: 'SERVER_DISCONNECTED' });
  stats.callRefused({ code: 'TOOL_NOT_FOUND' });
  stats.callRefused({ code: 'TOOL_NOT_FOUND' });
  expect(refusalsOfNoServer(stats.snapshot(new Map([['sink', 'ready']])))).toEqual({ TOOL_NOT_FOUND: 2 });
});
