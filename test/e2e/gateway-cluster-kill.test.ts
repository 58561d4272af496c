/**
 * The gateway cluster losing a replica (issue 20, "Done when" 2): three replicas of the built
 * `switchboard serve` on one PostgreSQL database behind a real HAProxy with deploy/haproxy.cfg's
 * backend. 20 SDK v1 clients (2025 sessions) call for 30 s; 10 s in, one replica is SIGKILLed.
 * Only calls in flight on it fail, each with a clear error (HAProxy answers them with
 * deploy/haproxy.cfg's JSON-RPC error: the replica serving the call stopped, retry it); no call
 * started after the kill fails; every client keeps its one session (no second `initialize`) and
 * goes on; a replacement replica on the same port joins (HAProxy's check) and takes traffic.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { clusterTestBedMissing, mcpAnswers, startClusterTestBed, type ClusterTestBed } from '../helpers/cluster-test-bed.js';
import { waitFor } from '../helpers/processes.js';

const reason = await clusterTestBedMissing();
const CLIENTS = 20;
const RUN_MS = 30_000;
const KILL_AT_MS = 10_000;

/** An error's message, and its cause's (undici's `fetch failed` says why only there). */
function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause === undefined ? error.message : `${error.message} (${String(error.cause)})`;
}

interface Call {
  client: number;
  started: number;
  ended: number;
  error?: string;
}

describe.skipIf(reason !== undefined)(`a replica SIGKILLed under 20 clients${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let bed: ClusterTestBed;
  const clients: V1Client[] = [];

  beforeAll(async () => {
    bed = await startClusterTestBed();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await bed?.close();
  }, 60_000);

  test('only the calls in flight on it fail, each with a clear error; every client keeps its session; a replacement takes traffic', async () => {
    const token = await bed.userToken('tess');
    const running = await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        let initializes = 0;
        const counting = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
          if (typeof init?.body === 'string' && init.body.includes('"method":"initialize"')) initializes++;
          return fetch(input, init);
        };
        const client = new V1Client({ name: 'cluster-kill-e2e', version: '1.0.0' }, { capabilities: {} });
        const transport = new V1HttpTransport(new URL(`${bed.haproxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } }, fetch: counting });
        await client.connect(transport);
        clients.push(client);
        return { client, transport, initializes: () => initializes };
      }),
    );
    const sessions = running.map((one) => one.transport.sessionId);
    const calls: Call[] = [];
    const begun = performance.now();
    // Calls of 200 ms (a sleep upstream) keep several in flight on every replica at any moment.
    const loops = running.map(async ({ client }, index) => {
      while (performance.now() - begun < RUN_MS) {
        const started = performance.now();
        try {
          const result = (await client.callTool({ name: 'sleep', arguments: { ms: 200 } }, undefined, { timeout: 15_000 })) as { isError?: boolean; content: Array<{ text: string }> };
          calls.push({ client: index, started, ended: performance.now(), ...(result.isError === true ? { error: result.content[0]?.text ?? 'isError' } : {}) });
        } catch (error) {
          calls.push({ client: index, started, ended: performance.now(), error: errorText(error) });
        }
      }
    });
    const okSince = (since: number): Set<number> => new Set(calls.filter((call) => call.started >= since && call.error === undefined).map((call) => call.client));
    await waitFor(() => okSince(begun).size === CLIENTS, 20_000, 'every client to make a call');
    await waitFor(() => performance.now() - begun >= KILL_AT_MS, KILL_AT_MS + 1_000, `${KILL_AT_MS} ms of calls before the kill`);
    const victim = bed.replicas[1];
    if (victim === undefined) throw new Error('no replica 2');
    const killing = performance.now();
    await victim.kill();
    const killed = performance.now();
    await waitFor(() => okSince(killed).size === CLIENTS, 20_000, 'every client to make a call after the kill');
    // A replacement on the same port: HAProxy's check brings it in, and it serves.
    const replacement = await bed.start(victim.port);
    await bed.waitUp(3);
    const joined = performance.now();
    await waitFor(async () => (await mcpAnswers(replacement, bed.adminToken)) >= 20, 20_000, 'the replacement to serve calls');
    await waitFor(() => okSince(joined).size === CLIENTS, 20_000, 'every client to make a call after the replacement joined');
    await Promise.all(loops);

    const failed = calls.filter((call) => call.error !== undefined);
    const errors = [...new Set(failed.map((call) => call.error))];
    console.log(`${calls.length} calls in ${Math.round(performance.now() - begun)} ms, ${failed.length} failed (in flight on the killed replica); replacement served ${await mcpAnswers(replacement, bed.adminToken)}; errors: ${errors.join(' | ')}`);
    // Only calls already running when the replica died fail: none that started after it was gone.
    for (const call of failed) {
      expect(call.started).toBeLessThan(killed);
      expect(call.ended).toBeGreaterThan(killing);
    }
    // At most one call per client was in flight; some were, on the victim (a third of the replicas).
    expect(failed.length).toBeLessThanOrEqual(CLIENTS);
    expect(failed.length).toBeGreaterThan(0);
    // Each with a clear error: which replica stopped, what to do. Not "fetch failed".
    for (const error of errors) expect(error).toMatch(/replica serving this call stopped.*retry/i);
    // Every client kept its one session.
    expect(running.map((one) => one.transport.sessionId)).toEqual(sessions);
    expect(running.map((one) => one.initializes())).toEqual(Array.from({ length: CLIENTS }, () => 1));
  }, 180_000);
});
