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
