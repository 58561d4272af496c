import { expect, test } from 'vitest';
import { StatsCollector } from '../metrics/stats-collector.js';
import { formatStats } from './format-stats.js';

function collected(): StatsCollector {
  const stats = new StatsCollector(() => 1_000_000);
  stats.callStarted('sink', 'echo');
  stats.callEnded({ server: 'sink', tool: 'echo', durationMs: 4, ok: true, isError: false });
  stats.callRefused({ server: 'sink', tool: 'add', code: 'INVALID_ARGUMENT' });
  stats.callRefused({ server: 'sink', tool: 'add', code: 'SERVER_DISCONNECTED' });
  stats.callRefused({ code: 'TOOL_NOT_FOUND' });
  return stats;
}

test('refused calls have a column per server and tool, and a section by code with those of no server', () => {
  const text = formatStats(collected().snapshot(new Map([['sink', 'ready']])));
  expect(text).toMatch(/^server \/ tool +state +calls +ok +refused +err%/);
  expect(text).toMatch(/\nsink +ready +3 +1 +2 +66\.7 /);
  expect(text).toMatch(/\n {2}add +2 +0 +2 +100\.0 +- /);
  expect(text).toMatch(/\n {2}echo +1 +1 +0 +0\.0 /);
  expect(text).toContain('\n\nrefused before sending, by code:\n  sink: INVALID_ARGUMENT × 1\n  sink: SERVER_DISCONNECTED × 1\n  (no server): TOOL_NOT_FOUND × 1');
});

test('stats of a gateway from before refusals were counted still print', () => {
  const older: unknown = JSON.parse(JSON.stringify(collected().snapshot(new Map([['sink', 'ready']]))), (key, value: unknown) => (key === 'refused' ? undefined : value));
  const text = formatStats(older as Parameters<typeof formatStats>[0]);
  expect(text).toMatch(/\n {2}add +2 +0 +0 +100\.0 /);
  expect(text).not.toContain('refused before sending');
});
