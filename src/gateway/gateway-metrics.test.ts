import { expect, test } from 'vitest';
import { noopLogger } from '../logger.js';
import type { RegistryUser } from '../registry/index.js';
import { GatewayMetrics, labelValue, onlyUser } from './gateway-metrics.js';
import { LimitRefusals } from './limit-refusals.js';

const EXPOSITION = `# HELP mcp_tool_calls_total Tool calls by outcome (ok, tool_error, error).
# TYPE mcp_tool_calls_total counter
mcp_tool_calls_total{user="alice",server="a",tool="echo",outcome="ok"} 3
mcp_tool_calls_total{user="bob",server="b",tool="echo",outcome="ok"} 5
mcp_tool_calls_total{user="alice2",server="a",tool="echo",outcome="ok"} 7
mcp_tool_calls_total{server="x\\",user=\\"alice",user="mallory",tool="t",outcome="ok"} 1

# HELP switchboard_http_requests_total HTTP requests by method, route and status.
# TYPE switchboard_http_requests_total counter
switchboard_http_requests_total{method="GET",route="/metrics",status="200"} 2
`;

test('a tenant sees only the samples with their user label, under their HELP and TYPE lines', () => {
  expect(onlyUser(EXPOSITION, 'alice')).toBe(
    '# HELP mcp_tool_calls_total Tool calls by outcome (ok, tool_error, error).\n# TYPE mcp_tool_calls_total counter\nmcp_tool_calls_total{user="alice",server="a",tool="echo",outcome="ok"} 3\n',
  );
  expect(onlyUser(EXPOSITION, 'nobody')).toBe('');
});

test('label values are read with escapes, so a crafted value cannot pose as another label', () => {
  expect(labelValue('m{server="x\\",user=\\"alice",user="mallory"} 1', 'user')).toBe('mallory');
  expect(labelValue('m{a="1",b="two words"} 1', 'b')).toBe('two words');
  expect(labelValue('m 1', 'user')).toBeUndefined();
  expect(labelValue('m{a="line\\nbreak"} 1', 'a')).toBe('line\nbreak');
});

const user = (name: string, isAdmin: boolean): RegistryUser => ({ id: name, name, isAdmin, createdAt: '', updatedAt: '' });

test('refusals by the caps are exposed by limit, 0 included, to administrators only', async () => {
  const refusals = new LimitRefusals();
  refusals.count('maxListenStreamsPerUser');
  refusals.count('maxListenStreamsPerUser');
  refusals.count('maxConnections');
  const metrics = await GatewayMetrics.create({ sessions: () => 0, clients: () => 0, callsInFlight: () => 0, limitRefusals: () => refusals.snapshot() }, noopLogger);
  const admin = await metrics.render(user('admin', true));
  expect(admin).toContain('switchboard_limit_refusals_total{limit="maxListenStreamsPerUser"} 2');
  expect(admin).toContain('switchboard_limit_refusals_total{limit="maxConnections"} 1');
  expect(admin).toContain('switchboard_limit_refusals_total{limit="maxSessions"} 0');
  refusals.count('maxConnections');
  expect(await metrics.render(user('admin', true))).toContain('switchboard_limit_refusals_total{limit="maxConnections"} 2');
  expect(await metrics.render(user('alice', false))).not.toContain('switchboard_limit_refusals_total');
});

test('requests are counted by method, route and status across scrapes, and timed by method and route', async () => {
  const metrics = await GatewayMetrics.create({ sessions: () => 0, clients: () => 0, callsInFlight: () => 0 }, noopLogger);
  metrics.observeRequest('POST', '/mcp', 200, 0.0004);
  metrics.observeRequest('POST', '/mcp', 200, 0.02);
  metrics.observeRequest('POST', '/mcp', 429, 0.0001);
  const first = await metrics.render(user('admin', true));
  expect(first).toContain('switchboard_http_requests_total{method="POST",route="/mcp",status="200"} 2');
  expect(first).toContain('switchboard_http_requests_total{method="POST",route="/mcp",status="429"} 1');
  expect(first).toContain('switchboard_http_request_duration_seconds_bucket{le="0.001",method="POST",route="/mcp"} 2');
  expect(first).toContain('switchboard_http_request_duration_seconds_count{method="POST",route="/mcp"} 3');
  // A second scrape adds what came since, and counts nothing twice.
  metrics.observeRequest('POST', '/mcp', 200, 0.001);
  const second = await metrics.render(user('admin', true));
  expect(second).toContain('switchboard_http_requests_total{method="POST",route="/mcp",status="200"} 3');
  expect(second).toContain('switchboard_http_requests_total{method="POST",route="/mcp",status="429"} 1');
  expect(second).toContain('switchboard_http_request_duration_seconds_count{method="POST",route="/mcp"} 4');
});
