/**
 * Issue 14, finding 3: an upstream that answers `tools/call` with an event stream that never ends.
 * Every call that times out or is cancelled must give its socket back (the stream is aborted), in
 * both protocol eras; before the fix each such call left one TCP connection open for good.
 * An answer whose line never ends is cut at MAX_HTTP_MESSAGE_BYTES (it grew the process by gigabytes
 * until V8 aborted it). The hostile server is
 * test/fixtures/servers/endless-stream-server.mjs, on loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { RESPONSE_STREAM_LINGER_MS } from '../../src/connection/request-streams.js';
import { MAX_HTTP_MESSAGE_BYTES } from '../../src/connection/limited-fetch.js';
import { ErrorCode, isSwitchboardError } from '../../src/errors.js';
import { codeOf } from '../helpers/code-of.js';
import { specOf } from '../helpers/fixtures.js';
import { startEndlessStreamServer, type EndlessStreamFixture } from '../fixtures/servers/endless-stream-server.mjs';

const PARALLEL = 8;
// 1 s, not the attack's 100 ms: on a loaded test machine a call must reach the server before it times out.
const ROUNDS = 3;
/** Sockets allowed to stay: the parallel callers' pool plus the cancellation POSTs and the listing. */
const BOUND = PARALLEL + 4;

let fixture: EndlessStreamFixture;
beforeAll(async () => {
  fixture = await startEndlessStreamServer();
});
afterAll(async () => {
  await fixture?.close();
});

describe.each([
  ['2025 session', 'legacy', 'legacy'],
  ['2026-07-28', 'auto', 'modern'],
] as const)('%s over Streamable HTTP', (_label, protocol, era) => {
  let connection: ServerConnection;
  beforeAll(async () => {
    connection = new ServerConnection(specOf('endless', { url: fixture.url, transport: 'http', protocol, callTimeout: '1s' }));
    await connection.connect();
    expect(connection.protocolEra).toBe(era);
  });
  afterAll(async () => {
    await connection?.close();
  });

  test(`${PARALLEL * ROUNDS} timed-out calls leave at most ${BOUND} sockets open`, async () => {
    const before = fixture.hangingCalls();
    for (let round = 0; round < ROUNDS; round++) {
      const codes = await Promise.all(Array.from({ length: PARALLEL }, () => codeOf(connection.callTool('hang'))));
      expect(codes).toEqual(Array.from({ length: PARALLEL }, () => ErrorCode.RequestTimeout));
    }
    expect(fixture.hangingCalls() - before).toBe(PARALLEL * ROUNDS);
    await fixture.openAtMost(BOUND, 5_000);
    // The connection still works, on the sockets that are left.
    expect((await connection.callTool('echo', { message: 'still here' })).content).toEqual([{ type: 'text', text: 'echo: still here' }]);
  });

  test(`${PARALLEL * ROUNDS} cancelled calls (AbortSignal) leave at most ${BOUND} sockets open`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const calls = Array.from({ length: PARALLEL }, () => {
        const abort = new AbortController();
        const started = fixture.hangingCalls();
        const call = codeOf(connection.callTool('hang', {}, { signal: abort.signal, timeoutMs: 30_000 }));
        return { abort, call, started };
      });
      // Abort once the server holds every stream of the round, so the abort meets an open stream.
      await fixture.whenHangingCalls(calls[0]!.started + PARALLEL, 5_000);
      for (const { abort } of calls) abort.abort(new Error('the user gave up'));
      expect(await Promise.all(calls.map(({ call }) => call))).toEqual(Array.from({ length: PARALLEL }, () => ErrorCode.RequestCancelled));
    }
    await fixture.openAtMost(BOUND, 5_000);
  });

  test(`${PARALLEL * ROUNDS} answered calls whose stream stays open leave at most ${BOUND} sockets open`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all(Array.from({ length: PARALLEL }, () => connection.callTool('answer_then_hang')));
      expect(results.map((result) => result.content)).toEqual(Array.from({ length: PARALLEL }, () => [{ type: 'text', text: 'answered' }]));
    }
    // Each stream may linger RESPONSE_STREAM_LINGER_MS after its answer, then it is aborted.
    await fixture.openAtMost(BOUND, RESPONSE_STREAM_LINGER_MS + 5_000);
  });
});

describe.each([
  ['2025 session', 'legacy'],
  ['2026-07-28', 'auto'],
] as const)('%s: an answer past the bound', (_label, protocol) => {
  test.each([
    ['an event whose line never ends', 'flood'],
    ['an event of short lines that never ends', 'flood_lines'],
    ['a JSON body that never ends', 'flood_json'],
  ])('%s is cut off at the bound: the call fails at once, the process stays small and the connection serves on', async (_shape, tool) => {
    // A deadline far past the test's own: a call that waited for it (the stream cut, the request left pending) fails the test.
    const connection = new ServerConnection(specOf('flooding', { url: fixture.url, transport: 'http', protocol, callTimeout: '10m' }));
    await connection.connect();
    try {
      const before = process.memoryUsage().rss;
      const flooded = fixture.bytesFlooded();
      const failure: unknown = await connection.callTool(tool, {}).catch((error: unknown) => error);
      expect(isSwitchboardError(failure) ? failure.code : failure).toBe(ErrorCode.ServerRequestFailed);
      expect((failure as Error).message).toMatch(/more than 32 MiB in one (event of its event stream|answer)/);
      // The server wrote about the bound, not the 256 MiB it would have; the process kept its size.
      expect(fixture.bytesFlooded() - flooded).toBeGreaterThan(MAX_HTTP_MESSAGE_BYTES);
      expect(fixture.bytesFlooded() - flooded).toBeLessThan(MAX_HTTP_MESSAGE_BYTES * 3);
      expect(process.memoryUsage().rss - before).toBeLessThan(MAX_HTTP_MESSAGE_BYTES * 6);
      expect(JSON.stringify((await connection.callTool('echo', { message: 'after' })).content)).toContain('echo: after');
    } finally {
      await connection.close();
    }
  }, 60_000);
});

test('legacy SSE: an event past the bound on the session stream ends the session; the call fails at once and the connection comes back', async () => {
  const connection = new ServerConnection(specOf('flooding-sse', { url: fixture.sseUrl, transport: 'sse', callTimeout: '10m' }));
  await connection.connect();
  try {
    expect(connection.transportKind).toBe('sse');
    const streams = fixture.sseStreams();
    const handshakes = fixture.sseInitializes();
    const flooded = fixture.bytesFlooded();
    // Every answer comes on the one stream: cut, its calls cannot be answered, so they fail now with why.
    const failure: unknown = await connection.callTool('flood', {}).catch((error: unknown) => error);
    expect(isSwitchboardError(failure) ? failure.code : failure).toBe(ErrorCode.ServerDisconnected);
    expect((failure as Error).message).toBe('server "flooding-sse": it sent more than 32 MiB in one event of its event stream: the connection was dropped');
    expect(fixture.bytesFlooded() - flooded).toBeLessThan(MAX_HTTP_MESSAGE_BYTES * 3);
    // A call made meanwhile waits for the new session, on a new stream.
    expect(JSON.stringify((await connection.callTool('echo', { message: 'after' })).content)).toContain('echo: after');
    // A new session (a new handshake), not the event source reconnecting the old stream by itself.
    expect(fixture.sseStreams()).toBe(streams + 1);
    expect(fixture.sseInitializes()).toBe(handshakes + 1);
  } finally {
    await connection.close();
  }
}, 60_000);

test('legacy SSE: a stream cut at the bound during the handshake fails the start with why', async () => {
  const connection = new ServerConnection(specOf('flooding-start', { url: `${fixture.sseUrl}?flood`, transport: 'sse', restart: false, timeout: '50s' }));
  try {
    const failure: unknown = await connection.connect().catch((error: unknown) => error);
    expect(isSwitchboardError(failure) ? failure.code : failure).toBe(ErrorCode.ServerStartFailed);
    expect((failure as Error).message).toBe('server "flooding-start" failed to start: it sent more than 32 MiB in one event of its event stream: the connection was dropped');
  } finally {
    await connection.close();
  }
}, 60_000);
