/**
 * Calls refused before anything is sent (invalid arguments, an unknown tool, a server that is not up)
 * are counted, by error code, per server and per tool where known (issue 15, defect 6): in the
 * library's stats() and toPrometheus(), and in the gateway's /api/stats and /metrics. Real
 * server-everything; a server that never starts (a missing executable) for the not-up case.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ClientStats } from '../../src/metrics/stats-collector.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { TEST_CLIENT_OPTIONS, gatedSink } from '../helpers/agents.js';
import { bin } from '../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../helpers/gateway.js';

const connect = connectForEachTest();

/** A Prometheus sample's value, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const match = /^[^{]+\{(.*)\} (\S+)$/.exec(line);
    if (match === null) continue;
    const found = Object.fromEntries([...(match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((pair) => [pair[1], pair[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[2]);
  }
  return undefined;
}

describe('library', () => {
  test('stats() counts refused calls by code, under their server and tool', async () => {
    const client = await connect({ mcpServers: { everything: { command: bin('mcp-server-everything') } } });
    await client.callTool('get-sum', { a: 1, b: 2 });
    await expect(client.callTool('get-sum', { a: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(client.callTool('get-sum', { a: 'one', b: 2 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(client.callTool('no-such-tool', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
    const stats = client.stats();
    expect(stats.refused).toEqual({ INVALID_ARGUMENT: 2, TOOL_NOT_FOUND: 1 });
    const everything = stats.servers.find((server) => server.server === 'everything');
    expect(everything).toMatchObject({ calls: 3, ok: 1, refused: { INVALID_ARGUMENT: 2 }, errors: { INVALID_ARGUMENT: 2 }, errorRate: 2 / 3 });
    expect(everything?.tools.find((tool) => tool.tool === 'get-sum')).toMatchObject({ calls: 3, ok: 1, refused: { INVALID_ARGUMENT: 2 } });
    // Only the call that was sent has a latency.
    expect(everything?.latency.count).toBe(1);
  });

  test('toPrometheus() has them, seeded from before and followed after', async () => {
    const client = await connect({ mcpServers: { everything: { command: bin('mcp-server-everything') } } });
    await expect(client.callTool('get-sum', { a: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(client.callTool('nope', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
    let text = await client.toPrometheus();
    expect(sample(text, 'mcp_tool_calls_refused_total', { server: 'everything', tool: 'get-sum', code: 'INVALID_ARGUMENT' })).toBe(1);
    expect(sample(text, 'mcp_tool_calls_refused_total', { server: '', tool: '', code: 'TOOL_NOT_FOUND' })).toBe(1);
    expect(sample(text, 'mcp_tool_calls_total', { server: 'everything', tool: 'get-sum', outcome: 'refused' })).toBe(1);
    expect(sample(text, 'mcp_tool_call_errors_total', { server: 'everything', tool: 'get-sum', code: 'INVALID_ARGUMENT' })).toBe(1);
    await expect(client.callTool('get-sum', {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(client.callTool('nope', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND' });
    text = await client.toPrometheus();
    expect(sample(text, 'mcp_tool_calls_refused_total', { server: 'everything', tool: 'get-sum', code: 'INVALID_ARGUMENT' })).toBe(2);
    expect(sample(text, 'mcp_tool_calls_refused_total', { server: '', tool: '', code: 'TOOL_NOT_FOUND' })).toBe(2);
    expect(sample(text, 'mcp_tool_calls_total', { server: 'everything', tool: 'get-sum', outcome: 'refused' })).toBe(2);
  });

  test('a call to a tool whose server is not up is counted under that server, and under the tool its last list named', async () => {
    const gate = gatedSink();
    try {
      const client = await connect({ mcpServers: { sink: gate.entry } }, TEST_CLIENT_OPTIONS);
      await gate.killAndHold(client, 'sink');
      await expect(client.callTool('add', { a: 1, b: 2 })).rejects.toMatchObject({ code: 'SERVER_DISCONNECTED', server: 'sink' });
      expect(client.stats().refused).toEqual({ SERVER_DISCONNECTED: 1 });
      const sink = client.stats().servers.find((server) => server.server === 'sink');
      expect(sink).toMatchObject({ calls: 1, refused: { SERVER_DISCONNECTED: 1 } });
      expect(sink?.tools.find((tool) => tool.tool === 'add')).toMatchObject({ calls: 1, ok: 0, refused: { SERVER_DISCONNECTED: 1 }, errors: { SERVER_DISCONNECTED: 1 } });
      // A name the catalog does not know is counted under the server only.
      await expect(client.callTool('sink__no_such_tool', {})).rejects.toMatchObject({ code: 'SERVER_DISCONNECTED', server: 'sink' });
      expect(client.stats().servers.find((server) => server.server === 'sink')).toMatchObject({ calls: 2, refused: { SERVER_DISCONNECTED: 2 } });
      expect(client.stats().servers.find((server) => server.server === 'sink')?.tools.map((tool) => tool.tool).sort()).not.toContain('no_such_tool');
    } finally {
      gate.open();
      gate.cleanup();
    }
  });
});

describe('gateway', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ servers: { everything: { command: bin('mcp-server-everything') } } });
  });
  afterAll(async () => {
    await gateway?.close();
  });

  test('/api/stats and /metrics count the calls refused for bad arguments and unknown tools', async () => {
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    try {
      const bad = await client.callTool({ name: 'get-sum', arguments: { a: 1 } });
      expect(bad.isError).toBe(true);
      expect(JSON.stringify(bad.content)).toContain('`b` is required but missing');
      // An unknown tool is a JSON-RPC error of its own (invalid params).
      await expect(client.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow('There is no tool named "no-such-tool"');
    } finally {
      await client.close();
    }
    const stats = (await (await gateway.api('/api/stats')).json()) as ClientStats;
    expect(stats.refused).toEqual({ INVALID_ARGUMENT: 1, TOOL_NOT_FOUND: 1 });
    expect(stats.servers.find((server) => server.server === 'everything')).toMatchObject({ calls: 1, refused: { INVALID_ARGUMENT: 1 }, errors: { INVALID_ARGUMENT: 1 } });
    const metrics = await (await gateway.api('/metrics')).text();
    expect(sample(metrics, 'mcp_tool_calls_refused_total', { server: 'everything', tool: 'get-sum', code: 'INVALID_ARGUMENT' })).toBe(1);
    expect(sample(metrics, 'mcp_tool_calls_refused_total', { server: '', tool: '', code: 'TOOL_NOT_FOUND' })).toBe(1);
    expect(sample(metrics, 'mcp_tool_call_errors_total', { server: 'everything', tool: 'get-sum', code: 'INVALID_ARGUMENT' })).toBe(1);
    expect(sample(metrics, 'mcp_tool_calls_total', { server: 'everything', tool: 'get-sum', outcome: 'refused' })).toBe(1);
  });
});
