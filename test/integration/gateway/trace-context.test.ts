/**
 * W3C trace context across the gateway, seen by a real upstream (structured-server.mjs echoes the
 * `_meta` of its tools/call). A trace that arrives in `_meta` or as HTTP headers reaches the upstream:
 * unchanged while nothing traces in the gateway's process, and continued by the call's span (same
 * trace id, the gateway's span as parent) once a tracer is registered. In the library, the caller's
 * active span is the parent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { context, trace } from '@opentelemetry/api';
import { MultiServerClient } from '../../../src/client/multi-server-client.js';
import { prepareTracing } from '../../../src/metrics/tracing.js';
import { FIXTURES } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { registerTestTracer } from '../../helpers/test-tracer.js';

const SERVER = `${FIXTURES}/structured-server.mjs`;
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const INCOMING = { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: 'vendor=abc', baggage: 'user.tier=gold' };

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ servers: { structured: { command: process.execPath, args: [SERVER] } } });
});
afterAll(async () => {
  await gateway?.close();
});

/** The `_meta` the upstream saw for one echo_meta call. */
async function upstreamMeta(client: Client, meta?: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name: 'echo_meta', arguments: {}, ...(meta === undefined ? {} : { _meta: meta }) });
  return (result.structuredContent as { meta: Record<string, unknown> }).meta;
}

describe('without a tracer in the gateway', () => {
  test.each(['legacy', 'auto'] as const)('a trace in _meta reaches the upstream unchanged (%s)', async (mode) => {
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, mode);
    try {
      expect(await upstreamMeta(client, INCOMING)).toMatchObject(INCOMING);
      // No trace, no keys.
      expect(Object.keys(await upstreamMeta(client))).not.toContain('traceparent');
    } finally {
      await client.close();
    }
  });

  test('a malformed traceparent is not passed on', async () => {
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    try {
      expect(Object.keys(await upstreamMeta(client, { traceparent: `00-${'0'.repeat(32)}-${PARENT_ID}-01` }))).not.toContain('traceparent');
    } finally {
      await client.close();
    }
  });

  test('a trace in the HTTP headers reaches the upstream', async () => {
    const client = new Client({ name: 'header-trace', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(gateway.mcpUrl, { requestInit: { headers: { authorization: `Bearer ${gateway.adminToken}`, traceparent: INCOMING.traceparent } } }));
    try {
      expect((await upstreamMeta(client)).traceparent).toBe(INCOMING.traceparent);
    } finally {
      await client.close();
    }
  });
});

describe('with a tracer registered', () => {
  let tracer: ReturnType<typeof registerTestTracer>;
  beforeAll(async () => {
    tracer = registerTestTracer();
    await prepareTracing();
  });
  afterAll(() => tracer?.unregister());

  test('the gateway continues the incoming trace: same trace id, its span as the upstream parent', async () => {
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'auto');
    try {
      const meta = await upstreamMeta(client, INCOMING);
      const [, traceId, parentId] = String(meta.traceparent).split('-');
      expect(traceId).toBe(TRACE_ID);
      expect(parentId).not.toBe(PARENT_ID);
      const span = tracer.spans.find((candidate) => candidate.spanId === parentId);
      expect(span).toMatchObject({ name: 'mcp.tools/call echo_meta', traceId: TRACE_ID, parentSpanId: PARENT_ID, ended: true });
      expect(meta).toMatchObject({ tracestate: 'vendor=abc', baggage: 'user.tier=gold' });
    } finally {
      await client.close();
    }
  });

  test("in the library, the caller's active span is the parent", async () => {
    const client = await MultiServerClient.connect({ mcpServers: { structured: { command: process.execPath, args: [SERVER] } } });
    try {
      const caller = tracer.startSpan('agent step');
      const result = await context.with(trace.setSpan(context.active(), caller), () => client.callTool('echo_meta', {}));
      const [, traceId, parentId] = String((result.structuredContent as { meta: Record<string, unknown> }).meta.traceparent).split('-');
      expect(traceId).toBe(caller.spanContext().traceId);
      expect(tracer.spans.find((span) => span.spanId === parentId)?.parentSpanId).toBe(caller.spanContext().spanId);
    } finally {
      await client.close();
    }
  });
});
