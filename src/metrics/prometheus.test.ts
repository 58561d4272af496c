import { expect, test } from 'vitest';
import { attachPrometheus } from './prometheus.js';
import { StatsCollector } from './stats-collector.js';

function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('refused calls: seeded per tool, per server and unattributed, then followed', async () => {
  const stats = new StatsCollector(() => 1_000);
  stats.callRefused({ server: 's', tool: 'sum', code: 'INVALID_ARGUMENT' });
  stats.callRefused({ server: 's', code: 'SERVER_DISCONNECTED' });
  stats.callRefused({ code: 'TOOL_NOT_FOUND' });
  const { registry, detach } = await attachPrometheus(stats, () => stats.snapshot(new Map([['s', 'ready']])));
  try {
    let text = await registry.metrics();
    expect(value(text, 'mcp_tool_calls_refused_total{server="s",tool="sum",code="INVALID_ARGUMENT"}')).toBe(1);
    expect(value(text, 'mcp_tool_calls_refused_total{server="s",tool="",code="SERVER_DISCONNECTED"}')).toBe(1);
    expect(value(text, 'mcp_tool_calls_refused_total{server="",tool="",code="TOOL_NOT_FOUND"}')).toBe(1);
    expect(value(text, 'mcp_tool_calls_total{server="s",tool="sum",outcome="refused"}')).toBe(1);
    expect(value(text, 'mcp_tool_calls_total{server="s",tool="sum",outcome="error"}')).toBeUndefined();
    expect(value(text, 'mcp_tool_call_errors_total{server="s",tool="sum",code="INVALID_ARGUMENT"}')).toBe(1);
    stats.callRefused({ server: 's', tool: 'sum', code: 'INVALID_ARGUMENT' });
    stats.callRefused({ server: 's', code: 'SERVER_DISCONNECTED' });
    text = await registry.metrics();
    expect(value(text, 'mcp_tool_calls_refused_total{server="s",tool="sum",code="INVALID_ARGUMENT"}')).toBe(2);
    expect(value(text, 'mcp_tool_calls_refused_total{server="s",tool="",code="SERVER_DISCONNECTED"}')).toBe(2);
    expect(value(text, 'mcp_tool_calls_total{server="s",tool="sum",outcome="refused"}')).toBe(2);
    // No latency for a call that was never sent.
    expect(value(text, 'mcp_tool_call_duration_seconds_count{server="s",tool="sum"}')).toBeUndefined();
  } finally {
    detach();
  }
});

test('ended calls: counted by outcome and timed per client, two clients in one registry kept apart', async () => {
  const alice = new StatsCollector(() => 1_000);
  const bob = new StatsCollector(() => 1_000);
  const first = await attachPrometheus(alice, () => alice.snapshot(new Map([['s', 'ready']])), { labels: { user: 'alice' } });
  const second = await attachPrometheus(bob, () => bob.snapshot(new Map([['s', 'ready']])), { registry: first.registry, labels: { user: 'bob' } });
  try {
    const end = (stats: StatsCollector, ok: boolean, isError: boolean, durationMs: number): void => {
      stats.callStarted('s', 'sum');
      stats.callEnded({ server: 's', tool: 'sum', durationMs, ok, isError, ...(ok || isError ? {} : { errorCode: 'REQUEST_TIMEOUT' }) });
    };
    end(alice, true, false, 2);
    end(alice, true, false, 40);
    end(alice, false, true, 3);
    end(bob, false, false, 20_000);
    let text = await first.registry.metrics();
    expect(value(text, 'mcp_tool_calls_total{user="alice",server="s",tool="sum",outcome="ok"}')).toBe(2);
    expect(value(text, 'mcp_tool_calls_total{user="alice",server="s",tool="sum",outcome="tool_error"}')).toBe(1);
    expect(value(text, 'mcp_tool_calls_total{user="bob",server="s",tool="sum",outcome="error"}')).toBe(1);
    expect(value(text, 'mcp_tool_call_errors_total{user="bob",server="s",tool="sum",code="REQUEST_TIMEOUT"}')).toBe(1);
    expect(value(text, 'mcp_tool_call_duration_seconds_count{user="alice",server="s",tool="sum"}')).toBe(3);
    expect(value(text, 'mcp_tool_call_duration_seconds_bucket{le="0.0025",user="alice",server="s",tool="sum"}')).toBe(1);
    expect(value(text, 'mcp_tool_call_duration_seconds_bucket{le="30",user="bob",server="s",tool="sum"}')).toBe(1);
    end(alice, true, false, 1);
    text = await first.registry.metrics();
    expect(value(text, 'mcp_tool_calls_total{user="alice",server="s",tool="sum",outcome="ok"}')).toBe(3);
    expect(value(text, 'mcp_tool_call_duration_seconds_count{user="alice",server="s",tool="sum"}')).toBe(4);
  } finally {
    second.detach();
    first.detach();
  }
});
