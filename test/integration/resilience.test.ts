/**
 * The fault-injection suite: real servers that crash, hang, forget sessions, fail with 500s, drip,
 * send 20 MB, flood list_changed and come back with other tools — and what the client does about it.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MultiServerClient } from '../../src/client/multi-server-client.js';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { ErrorCode, type SwitchboardError } from '../../src/errors.js';
import { FAULT_SERVER, KITCHEN_SINK, MINIMAL_SERVER, freePort, specOf, startHttpFixture, type HttpFixture } from '../helpers/fixtures.js';
import { isAlive, livingProcesses, waitFor } from '../helpers/processes.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { nextEvent } from '../helpers/next-event.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'sb-faults-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const connect = connectForEachTest();
let fileCounter = 0;
const tempFile = (name: string): string => join(dir, `${name}-${++fileCounter}`);
const fault = (mode: string, args: string[] = [], extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [FAULT_SERVER, '--mode', mode, ...args], ...extra });
const lines = (file: string, prefix: string): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((line) => line === prefix).length : 0);
const pidOf = (client: MultiServerClient, server: string): number => {
  const pid = client.connection(server)?.pid;
  if (pid === undefined) throw new Error(`no pid for ${server}`);
  return pid;
};

describe('crash and restart', () => {
  test('a stdio server killed during a call: the call rejects within 1 s, the server restarts, the next call succeeds, no process is left', async ({ annotate }) => {
    const counts = tempFile('counts');
    const client = await connect({ mcpServers: { victim: fault('ok', ['--count-file', counts], { restart: { delay: '50ms' } }), other: { path: KITCHEN_SINK } } });
    const firstPid = pidOf(client, 'victim');
    const states: string[] = [];
    client.on('server-state-change', ({ server, to }) => server === 'victim' && states.push(to));
    const call = client.callTool('hang', {});
    await waitFor(() => lines(counts, 'tool hang') === 1, 5_000, 'the call to reach the server');
    const killedAt = Date.now();
    process.kill(firstPid, 'SIGKILL');
    const error = (await call.catch((caught: unknown) => caught)) as SwitchboardError;
    const rejectedMs = Date.now() - killedAt;
    expect(rejectedMs).toBeLessThan(1_000);
    expect(error.code).toBe(ErrorCode.ServerDisconnected);
    // The hang tool may write: it is not retried.
    expect(lines(counts, 'tool hang')).toBe(1);
    await nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up' && event.server === 'victim');
    expect(states).toEqual(['reconnecting', 'ready']);
    await annotate(`measured: the call rejected ${rejectedMs} ms after SIGKILL; ready again ${Date.now() - killedAt} ms after it`);
    const secondPid = pidOf(client, 'victim');
    expect(secondPid).not.toBe(firstPid);
    expect((await client.callTool('victim__echo', { message: 'after restart' })).content[0]).toEqual({ type: 'text', text: 'after restart' });
    expect(client.status().find((server) => server.name === 'victim')?.restarts).toBe(1);
    expect(client.stats().servers.find((server) => server.server === 'victim')?.restarts).toBe(1);
    // The other server never noticed.
    expect(client.status().find((server) => server.name === 'other')?.state).toBe('ready');
    await client.close();
    expect(isAlive(firstPid)).toBe(false);
    expect(isAlive(secondPid)).toBe(false);
    expect(livingProcesses().filter((process) => process.cmdline.includes(counts))).toEqual([]);
  });

  test('a read-only tool is retried through a restart; a tool that writes is not (counted where the calls land)', async ({ annotate }) => {
    const counts = tempFile('counts');
    const client = await connect({ mcpServers: { flaky: fault('ok', ['--count-file', counts], { restart: { delay: '50ms' } }) } });
    const read = await client.callTool('crash_once', {});
    expect(read.content[0]).toEqual({ type: 'text', text: 'crash_once ok' });
    expect(lines(counts, 'tool crash_once')).toBe(2);
    expect(client.stats().servers[0]?.retries).toBe(1);

    const write = (await client.callTool('write_crash_once', {}).catch((caught: unknown) => caught)) as SwitchboardError;
    expect(write.code).toBe(ErrorCode.ServerDisconnected);
    expect(write.details.retryable).toBe(true);
    await nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up');
    expect((await client.callTool('echo', { message: 'up' })).content[0]).toEqual({ type: 'text', text: 'up' });
    expect(lines(counts, 'tool write_crash_once')).toBe(1);
    await annotate(`measured: crash_once (readOnlyHint) reached the server ${lines(counts, 'tool crash_once')}× and succeeded; write_crash_once reached it ${lines(counts, 'tool write_crash_once')}× and failed with ${write.code}`);
  });

  test('a server whose restarts keep failing opens the circuit (failed), others are unaffected, and a later probe brings it back', async ({ annotate }) => {
    const marker = tempFile('marker');
    const client = await connect({
      mcpServers: {
        brittle: fault('fail-after-first', ['--marker', marker], { restart: { attempts: 2, delay: '50ms', maxDelay: '100ms', probeInterval: '300ms' } }),
        steady: { path: KITCHEN_SINK },
      },
    });
    const down = nextEvent(client, 'server-state-change', (event) => event.server === 'brittle' && event.to === 'failed');
    const killedAt = Date.now();
    process.kill(pidOf(client, 'brittle'), 'SIGKILL');
    await down;
    const openedMs = Date.now() - killedAt;
    const status = client.status().find((server) => server.name === 'brittle');
    expect(status).toMatchObject({ state: 'failed', error: { code: ErrorCode.ServerStartFailed, message: expect.stringContaining('exited with code 3') } });
    expect(client.listTools().some((tool) => tool.server === 'brittle')).toBe(false);
    // Calls to it fail at once, naming the reason; the other server serves.
    const started = Date.now();
    await expect(client.callTool('brittle__echo', { message: 'x' })).rejects.toMatchObject({ code: ErrorCode.ServerDisconnected });
    const rejectedMs = Date.now() - started;
    expect(rejectedMs).toBeLessThan(1_000);
    expect((await client.callTool('steady__echo', { message: 'fine' })).content[0]).toEqual({ type: 'text', text: 'fine' });
    // Let it start again: the next probe succeeds.
    unlinkSync(marker);
    const probeFrom = Date.now();
    await nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up' && event.server === 'brittle');
    await annotate(`measured: circuit open (failed) ${openedMs} ms after the kill, after 2 failed restarts; a call to it rejected in ${rejectedMs} ms; back ${Date.now() - probeFrom} ms after the cause was removed (probe every 300 ms)`);
    expect((await client.callTool('brittle__echo', { message: 'back' })).content[0]).toEqual({ type: 'text', text: 'back' });
  });

  test('a restarted server with a different tool list: tools-changed names what was added and removed', async () => {
    const variants = tempFile('variants');
    const client = await connect({ mcpServers: { shifty: fault('ok', ['--variant-file', variants], { restart: { delay: '50ms' } }) } });
    expect(client.listTools().map((tool) => tool.name)).toContain('v1');
    const changed = nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up');
    process.kill(pidOf(client, 'shifty'), 'SIGKILL');
    const event = await changed;
    expect(event.added).toEqual(['v2']);
    expect(event.removed).toEqual(['v1']);
  });

  test('health checks: a frozen server misses pings, is marked degraded, then restarted', async ({ annotate }) => {
    const client = await connect({ mcpServers: { frozen: fault('ok', [], { healthCheck: { interval: '100ms', timeout: '100ms', misses: 3 }, restart: { delay: '50ms' } }) } });
    const pid = pidOf(client, 'frozen');
    const states: string[] = [];
    client.on('server-state-change', ({ to }) => states.push(to));
    const back = nextEvent(client, 'tools-changed', (event) => event.reason === 'server-up');
    const stoppedAt = Date.now();
    process.kill(pid, 'SIGSTOP');
    await back;
    await annotate(`measured: SIGSTOP to ready on a new process in ${Date.now() - stoppedAt} ms (ping every 100 ms, 3 misses)`);
    expect(states).toEqual(['degraded', 'reconnecting', 'ready']);
    expect(pidOf(client, 'frozen')).not.toBe(pid);
    await waitFor(() => !isAlive(pid), 5_000, 'the frozen process to be killed');
  });
});

describe('Streamable HTTP faults (kitchen-sink over HTTP)', () => {
  let fixture: HttpFixture;
  beforeAll(async () => {
    const port = await freePort();
    fixture = await startHttpFixture(process.execPath, [KITCHEN_SINK, '--http', String(port)], { port });
  });
  afterAll(async () => fixture?.close());
  const control = async (path: string): Promise<{ initializes: number; toolCalls: number }> => (await fetch(`http://127.0.0.1:${fixture.port}/control/${path}`, { method: 'POST' })).json() as Promise<{ initializes: number; toolCalls: number }>;

  test('a 404 session storm: one re-initialize, every caller succeeds', async ({ annotate }) => {
    const client = await connect({ mcpServers: { remote: { url: fixture.url('/mcp') } } });
    const before = await control('stats');
    await control('forget-sessions');
    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => client.callTool('echo', { message: `m${index}` })));
    expect(results.map((result) => result.content[0])).toEqual(Array.from({ length: 20 }, (_, index) => ({ type: 'text', text: `m${index}` })));
    const after = await control('stats');
    expect(after.initializes - before.initializes).toBe(1);
    await annotate(`measured: 20 concurrent callers after the server forgot the session: ${after.initializes - before.initializes} initialize, ${results.length} results`);
    expect(client.status()[0]?.state).toBe('ready');
  });

  test('HTTP 500: a read-only tool is retried, a tool that may write is not', async ({ annotate }) => {
    const client = await connect({ mcpServers: { remote: { url: fixture.url('/mcp'), retry: { attempts: 3, backoff: '20ms' } } } });
    let before = (await control('stats')).toolCalls;
    await control('fail-next?count=1&status=500');
    expect((await client.callTool('echo', { message: 'once more' })).content[0]).toEqual({ type: 'text', text: 'once more' });
    expect((await control('stats')).toolCalls - before).toBe(2);
    before = (await control('stats')).toolCalls;
    await control('fail-next?count=1&status=503');
    const error = (await client.callTool('fail', {}).catch((caught: unknown) => caught)) as SwitchboardError;
    expect(error).toMatchObject({ code: ErrorCode.ServerHttpError, details: { status: 503 } });
    expect((await control('stats')).toolCalls - before).toBe(1);
    await annotate('measured: after one HTTP 500, echo (readOnlyHint) reached the server 2× and succeeded; after one 503, fail reached it 1× and returned SERVER_HTTP_ERROR');
  });
});

describe('slow, large and noisy', () => {
  test('a response dripped in 20 pieces is assembled; a drip slower than the deadline times out', async () => {
    const client = await connect({ mcpServers: { drip: fault('ok') } });
    const result = await client.callTool('drip', { chunks: 20, ms: 10 });
    expect(result.content[0]).toEqual({ type: 'text', text: 'd'.repeat(1000) });
    await expect(client.callTool('drip', { chunks: 10, ms: 200 }, { timeoutMs: 300 })).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
  });

  test('a 20 MB result arrives whole', async ({ annotate }) => {
    const client = await connect({ mcpServers: { big: fault('ok') } });
    const started = Date.now();
    const result = await client.callTool('big', { mb: 20 });
    await annotate(`measured: 20 MiB result in ${Date.now() - started} ms`);
    const item = result.content[0];
    expect(item?.type === 'text' && item.text.length).toBe(20 * 1024 * 1024);
  });

  test('a flood of 300 list_changed notifications is debounced into one re-list and one event', async ({ annotate }) => {
    const counts = tempFile('counts');
    const client = await connect({ mcpServers: { noisy: fault('ok', ['--count-file', counts]) } }, { listChangedDebounceMs: 100 });
    const events: unknown[] = [];
    client.on('tools-changed', (event) => events.push(event));
    const listsBefore = lines(counts, 'tools/list');
    await client.callTool('flood', { count: 300 });
    await waitFor(() => events.length >= 1, 5_000, 'the tools-changed event');
    // One more debounce window without anything new arriving.
    await waitFor(() => lines(counts, 'tools/list') >= listsBefore + 1, 5_000, 'the re-list');
    expect(lines(counts, 'tools/list') - listsBefore).toBeLessThanOrEqual(2);
    expect(events.length).toBeLessThanOrEqual(2);
    await annotate(`measured: 300 notifications → ${lines(counts, 'tools/list') - listsBefore} tools/list, ${events.length} tools-changed event(s)`);
  });
});

describe('result cache', () => {
  const config = (cache: unknown) => ({ mcpServers: { sink: { path: KITCHEN_SINK, cache } } });
  const echoCount = async (client: MultiServerClient): Promise<number> => {
    const result = await client.callTool('count', {});
    return Number(result.content[0]?.type === 'text' ? result.content[0].text : NaN);
  };

  test('a hit avoids the server; a tool that may write invalidates; the TTL expires', async () => {
    let now = 1_000_000;
    const client = await connect(config({ ttl: '30s', tools: ['echo'] }), { now: () => now });
    await client.callTool('echo', { message: 'a' });
    const cached = await client.callTool('echo', { message: 'a' });
    expect(cached.content[0]).toEqual({ type: 'text', text: 'a' });
    expect(await echoCount(client)).toBe(1);
    await client.callTool('echo', { message: 'b' });
    expect(await echoCount(client)).toBe(2);
    // add_tool may write: the cache of this server is dropped.
    await client.callTool('add_tool', { name: 'extra' });
    await client.callTool('echo', { message: 'a' });
    expect(await echoCount(client)).toBe(3);
    await client.callTool('echo', { message: 'a' });
    expect(await echoCount(client)).toBe(3);
    now += 30_000;
    await client.callTool('echo', { message: 'a' });
    expect(await echoCount(client)).toBe(4);
    const stats = client.stats().servers[0]?.tools.find((tool) => tool.tool === 'echo');
    expect(stats).toMatchObject({ calls: 6, cacheHits: 2, cacheMisses: 4 });
  });

  test('readOnly: true caches only tools annotated readOnlyHint', async () => {
    const client = await connect(config({ readOnly: true }));
    await client.callTool('echo', { message: 'x' });
    await client.callTool('echo', { message: 'x' });
    // count is read-only too, so it is cached: it still says 1 echo reached the server.
    expect(await echoCount(client)).toBe(1);
    const fail = client.stats().servers[0]?.tools.find((tool) => tool.tool === 'echo');
    expect(fail?.cacheHits).toBe(1);
  });
});

test('200 connect/close cycles: processes, file descriptors and heap return to their start values', async ({ annotate }) => {
  const spec = specOf('cycle', { command: MINIMAL_SERVER });
  const fds = (): number => readdirCount('/proc/self/fd');
  // A real collection before each reading (vitest workers do not run with --expose-gc).
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heap = (): number => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const warm = new ServerConnection(spec);
  await warm.connect();
  await warm.ping();
  await warm.close();
  const processesBefore = livingProcesses().filter((process) => process.cmdline.includes('minimal-server.sh')).length;
  const fdsBefore = fds();
  const heapBefore = heap();
  for (let cycle = 0; cycle < 200; cycle++) {
    const connection = new ServerConnection(spec);
    await connection.connect();
    await connection.close();
  }
  await waitFor(() => livingProcesses().filter((process) => process.cmdline.includes('minimal-server.sh')).length <= processesBefore, 5_000, 'the servers to end');
  await waitFor(() => fds() <= fdsBefore + 2, 5_000, 'file descriptors to be released');
  // Heap: back within 1 MB of the start once garbage is collected (a leak of one connection per
  // cycle would be several MB over 200 cycles).
  const heapDelta = heap() - heapBefore;
  expect(heapDelta).toBeLessThan(1024 * 1024);
  await annotate(`measured: after 200 cycles, fds ${fds() - fdsBefore >= 0 ? '+' : ''}${fds() - fdsBefore}, heap ${(heapDelta / 1024).toFixed(0)} KiB vs the start, server processes left: ${livingProcesses().filter((process) => process.cmdline.includes('minimal-server.sh')).length - processesBefore}`);
}, 60_000);

test('metrics: counts and percentiles follow a scripted sequence, in stats(), Prometheus and OpenTelemetry spans', async ({ annotate }) => {
  const { trace } = await import('@opentelemetry/api');
  const spans: Array<{ name: string; attributes: Record<string, unknown>; status?: { code: number }; ended: boolean }> = [];
  trace.setGlobalTracerProvider({
    getTracer: () => ({
      startSpan: (name: string, options?: { attributes?: Record<string, unknown> }) => {
        const span = { name, attributes: { ...options?.attributes }, status: undefined as { code: number } | undefined, ended: false };
        spans.push(span);
        const api = {
          setAttribute: (key: string, value: unknown) => ((span.attributes[key] = value), api),
          setStatus: (status: { code: number }) => ((span.status = status), api),
          end: () => void (span.ended = true),
        };
        return api as never;
      },
      startActiveSpan: () => {
        throw new Error('not used');
      },
    }),
  });
  const { prepareTracing } = await import('../../src/metrics/tracing.js');
  await prepareTracing();
  try {
    const client = await connect({ mcpServers: { timed: fault('ok') } });
    const durations = [50, 60, 70, 80, 90, 100, 110, 120, 130, 140];
    for (const ms of durations) await client.callTool('slow', { ms });
    await expect(client.callTool('hang', {}, { timeoutMs: 200 })).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    const abort = new AbortController();
    const cancelled = client.callTool('hang', {}, { signal: abort.signal });
    abort.abort();
    await expect(cancelled).rejects.toMatchObject({ code: ErrorCode.RequestCancelled });
    expect((await client.callTool('echo', { message: 'x' })).isError).toBe(false);

    const server = client.stats().servers.find((entry) => entry.server === 'timed');
    expect(server).toMatchObject({ state: 'ready', calls: 13, ok: 11, toolErrors: 0, timeouts: 1, cancellations: 1, inFlight: 0, errors: { REQUEST_TIMEOUT: 1, REQUEST_CANCELLED: 1 } });
    const slow = server?.tools.find((tool) => tool.tool === 'slow');
    expect(slow?.calls).toBe(10);
    // Latencies cannot be shorter than the scripted sleeps: nearest-rank p50 is the 5th (90 ms), p95 the 10th
    // (140 ms). The server's timers run on libuv's millisecond clock and may fire up to 1 ms early.
    expect(slow?.latency.p50).toBeGreaterThanOrEqual(89);
    expect(slow?.latency.p95).toBeGreaterThanOrEqual(139);
    expect(slow?.latency.p50).toBeLessThan(slow?.latency.p95 ?? 0);
    expect(slow?.latency.max).toBe(slow?.latency.p99);
    await annotate(`measured: slow(50…140 ms) ×10 → p50 ${slow?.latency.p50} ms, p95 ${slow?.latency.p95} ms, p99 ${slow?.latency.p99} ms; 13 calls: 11 ok, 1 timeout, 1 cancelled`);

    const text = await client.toPrometheus();
    expect(text).toMatch(/mcp_tool_calls_total\{server="timed",tool="slow",outcome="ok"\} 10/);
    expect(text).toMatch(/mcp_tool_call_errors_total\{server="timed",tool="hang",code="REQUEST_TIMEOUT"\} 1/);
    expect(text).toMatch(/mcp_server_up\{server="timed",state="ready"\} 1/);
    // Calls after the registry exists also land in the histogram.
    await client.callTool('slow', { ms: 10 });
    expect(await client.toPrometheus()).toMatch(/mcp_tool_call_duration_seconds_count\{server="timed",tool="slow"\} 1/);

    expect(spans.filter((span) => span.name === 'mcp.tools/call slow')).toHaveLength(11);
    expect(spans.every((span) => span.ended)).toBe(true);
    expect(spans.find((span) => span.attributes['error.type'] === 'REQUEST_TIMEOUT')?.status).toMatchObject({ code: 2 });
  } finally {
    trace.disable();
  }
});

function readdirCount(path: string): number {
  return readdirSync(path).length;
}
