/**
 * The client that broke (issue 15, defect 11): a real HAProxy health-checks a real gateway the way
 * users configure it — `option httpchk GET /healthz`, which sends `GET /healthz HTTP/1.0` with no Host
 * header — and must mark the server UP with a passing L7 check; then real requests pass through it.
 * Each backend reaches the gateway through a recording proxy, so the test also sees that the checks
 * really were sent without Host.
 * Skipped where HAProxy is not installed, unless CI=true (CI installs it: .ci/run).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectV1, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';
import { haproxyMissing, startHaproxy, type HaproxyServerState, type RunningHaproxy } from '../../helpers/haproxy.js';
import { isAlive } from '../../helpers/processes.js';
import { startRecordingProxy, type RecordingProxy } from '../../helpers/recording-proxy.js';

const missing = haproxyMissing();
const skip = missing !== undefined && process.env.CI !== 'true';
if (skip) console.warn(`haproxy-probe: skipped, ${missing}`);

/**
 * Polls the stats socket (HAProxy's check state has no event to wait on) until `server` has a
 * settled verdict: UP after a passing L7 check, or DOWN. Bounded.
 */
async function settledState(haproxy: RunningHaproxy, server: string, timeoutMs = 15_000): Promise<HaproxyServerState> {
  const deadline = Date.now() + timeoutMs;
  let last: HaproxyServerState | undefined;
  for (;;) {
    last = (await haproxy.servers()).find((row) => `${row.backend}/${row.server}` === server);
    if (last === undefined) throw new Error(`haproxy reports no server ${server}`);
    if ((last.status === 'UP' && last.checkStatus === 'L7OK') || last.status === 'DOWN') return last;
    if (Date.now() > deadline) throw new Error(`${server} had no settled check state within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(skip)('a real HAProxy in front of the gateway', () => {
  let gateway: TestGateway;
  let haproxy: RunningHaproxy | undefined;
  const proxies = new Map<string, RecordingProxy>();

  beforeAll(async () => {
    if (missing !== undefined) throw new Error(`CI=true but ${missing}`);
    gateway = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } });
    const port = Number(new URL(gateway.url).port);
    for (const backend of ['gateway_httpchk', 'gateway_send']) proxies.set(backend, await startRecordingProxy(port));
    const server = (backend: string): string => `server gw 127.0.0.1:${proxies.get(backend)?.port ?? 0} check inter 200ms`;
    haproxy = await startHaproxy([
      // Exactly what users write: HAProxy sends `GET /healthz HTTP/1.0` and no Host.
      { name: 'gateway_httpchk', lines: ['option httpchk GET /healthz', server('gateway_httpchk')] },
      // The 2.2+ form: `http-check send` without `ver` or `hdr` also sends HTTP/1.0 with no Host.
      { name: 'gateway_send', lines: ['option httpchk', 'http-check send meth GET uri /healthz', 'http-check expect status 200', `http-check expect string '"ok":true'`, server('gateway_send')] },
    ]);
  });

  afterAll(async () => {
    const pid = haproxy?.pid;
    try {
      await haproxy?.close();
      if (pid !== undefined) expect(isAlive(pid), `haproxy ${pid} still runs after close()`).toBe(false);
    } finally {
      for (const proxy of proxies.values()) await proxy.close();
      await gateway?.close();
    }
  });

  test.each(['gateway_httpchk/gw', 'gateway_send/gw'])('%s: HAProxy marks the gateway UP after a passing L7 check on /healthz', async (server) => {
    if (haproxy === undefined) throw new Error('haproxy did not start');
    const state = await settledState(haproxy, server);
    const backend = server.split('/')[0] ?? '';
    expect(state, `haproxy output:\n${haproxy.output()}`).toEqual({ backend, server: 'gw', status: 'UP', checkStatus: 'L7OK', checkCode: '200' });
    // What passed was the Host-less HTTP/1.0 probe the defect was about.
    const checks = proxies.get(backend)?.heads.filter((head) => head.startsWith('GET /healthz ')) ?? [];
    expect(checks.length).toBeGreaterThan(0);
    for (const head of checks) {
      expect(head).toMatch(/^GET \/healthz HTTP\/1\.0\r\n/);
      expect(head).not.toMatch(/\r\nhost:/i);
    }
  });

  test('a probe and an MCP session through the HAProxy frontend reach the gateway', async () => {
    if (haproxy === undefined) throw new Error('haproxy did not start');
    await settledState(haproxy, 'gateway_httpchk/gw');
    const health = await fetch(`${haproxy.url}/healthz`, { signal: AbortSignal.timeout(10_000) });
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true });

    const client = await connectV1(new URL(`${haproxy.url}/mcp`), gateway.adminToken);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo');
    } finally {
      await client.close();
    }
  });
});
