/**
 * The wrk gateway case's measuring process (`node bench/wrk-worker.mjs NAME SCENARIO OUT_FILE [--quick]`):
 * gateways (`floor`, `switchboard`, `supergateway`, `mcp-proxy`), each in front of its own stdio echo
 * server, measured with wrk, a load generator far cheaper than any MCP client, so the figures are the
 * gateways'. Scenarios:
 * - `2025`: `initialize` once, then wrk POSTs `tools/call echo` with the session id;
 * - `2026`: stateless 2026-07-28 `tools/call` requests (envelope in `_meta`, `Mcp-Method`/`Mcp-Name`);
 * - `list`: a 1,003-tool upstream; sequential `tools/list` through the gateway against the same listing
 *   straight from the upstream's pipe (both with a lean Node client that parses the answer);
 * - `sessions`: RSS per idle 2025-era session (1,000 opened with a lean client) and the per-user cap.
 * `2025` and `2026` run every row in one process with NAME `interleaved` (OUT_FILE gets one result per
 * row); `list` and `sessions` one row, NAME. For the calls scenarios, at 1, 8 and 64 connections:
 * calls/s, p50/p99, mean and slowest call (wrk), errors (a non-200 answer or one without the echoed
 * text, plus socket errors), and each gateway process's own CPU per call from /proc/PID/stat (utime +
 * stime; the upstream, a child, is not in it); and one connection once more with fixed CPUs
 * (`c1Fixed`, see bench/cpu-placement.mjs), and with idle CPUs held polling (`c1Polling`, see
 * bench/idle-polling.mjs).
 */

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { serverEnv } from './clients.mjs';
import { gatewayOf } from './gateways.mjs';
import { RawClient } from './raw-client.mjs';
import { CLK_TCK, cpuTicks, runWrk } from './wrk-run.mjs';
import { freePort } from './free-port.mjs';
import { median } from './case-stats.mjs';
import { WRK_GATEWAYS } from './wrk-case.mjs';
import { LOAD_CPU, ROW_CPU, ownCpus, placeTree, placementUnavailable } from './cpu-placement.mjs';
import { holdIdlePolling, idleDriver, idlePollingUnavailable } from './idle-polling.mjs';

const [name, scenario, outFile, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
/** Interleaved 1 s windows per row and connection count: 4 s of each row at each count (2 s when quick). */
const WINDOW_SECONDS = 1;
const ROUNDS = quick ? 2 : 4;
const CONNECTIONS = [1, 8, 64];
const READY_TIMEOUT_MS = 20_000;
const SESSIONS = 1_000;
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const serverScript = `${benchDir}echo-server.mjs`;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** The floor row: bench/floor-gateway.mjs. */
const floor = {
  label: 'floor (bare HTTP→stdio forwarder)',
  available: () => undefined,
  start({ command, args, port, env }) {
    const token = randomBytes(32).toString('hex');
    const child = spawn(process.execPath, [`${benchDir}floor-gateway.mjs`, String(port), token, '--', command, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    return { url: `http://127.0.0.1:${port}/mcp`, process: child, headers: { authorization: `Bearer ${token}` } };
  },
};

/** One POST with a keep-alive agent; resolves { status, headers, body }. */
function post(url, headers, body, { agent: useAgent = agent } = {}) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent: useAgent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/** The JSON-RPC message of an answer, SSE-framed or plain JSON. */
function messageOf(body) {
  const data = body.startsWith('{') ? body : body.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).at(-1);
  return JSON.parse(data ?? 'null');
}

const INITIALIZE = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'wrk-bench', version: '1.0.0' } } };

/** Opens a 2025-era session: initialize, then notifications/initialized. Returns the request headers of the session. */
async function openSession(url, headers, options) {
  const answer = await post(url, headers, INITIALIZE, options);
  if (answer.status !== 200) throw new Error(`initialize answered ${answer.status}: ${answer.body.slice(0, 300)}`);
  const session = answer.headers['mcp-session-id'];
  const sessionHeaders = { ...headers, 'mcp-protocol-version': '2025-06-18', ...(session === undefined ? {} : { 'mcp-session-id': session }) };
  const notified = await post(url, sessionHeaders, { jsonrpc: '2.0', method: 'notifications/initialized' }, options);
  if (notified.status !== 202 && notified.status !== 200) throw new Error(`notifications/initialized answered ${notified.status}`);
  return sessionHeaders;
}

async function waitReady(url, headers) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    try {
      const answer = await post(url, headers, INITIALIZE, { agent: false });
      if (answer.status === 200) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`the gateway did not answer initialize at ${url} within ${READY_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function rssKiB(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1]);
}

function killGroup(child) {
  if (child === undefined || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      resolve();
    }, 3_000);
    child.once('exit', () => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
      resolve();
    });
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      clearTimeout(timer);
      resolve();
    }
  });
}

/** The tools/call request and request headers of a scenario. */
async function callOf(url, headers) {
  if (scenario === '2025') {
    const sessionHeaders = await openSession(url, headers);
    return { headers: sessionHeaders, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } } };
  }
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'wrk-bench', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  return {
    headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } },
  };
}

/**
 * The calls scenarios of every row at once, interleaved: all gateways run side by side (each in front
 * of its own echo server) and, per connection count, take turns in 1 s wrk windows, the order rotated
 * each round. On this machine a single figure moves by up to 2× within a minute; windows a second
 * apart share the machine's state, so the paired ratios compare gateways rather than moments.
 * Per row and connection count: calls/s and CPU per call over all its windows, p50/p99 the median of
 * its windows', the mean weighted by calls and the slowest call.
 */
async function measureInterleaved(rows) {
  for (const row of rows) {
    const call = await callOf(row.url, row.headers);
    // A good answer carries the echoed text as a tool result.
    row.request = { ...call, expect: '"text":"hello"' };
    const probe = await post(row.url, call.headers, call.body);
    if (probe.status !== 200 || !probe.body.includes(row.request.expect)) throw new Error(`${row.result.gateway}: tools/call answered ${probe.status}: ${probe.body.slice(0, 300)}`);
    await runWrk(row.url, 8, 1, row.request);
  }
  for (const connections of CONNECTIONS) {
    const combined = await interleavedWindows(rows, connections);
    for (const row of rows) row.result[`c${connections}`] = combined.get(row);
  }
  const why = placementUnavailable();
  if (why !== undefined) {
    for (const row of rows) row.result.c1FixedSkipped = why;
  } else {
    // One connection again with fixed CPUs: wrk on one, the row's whole process tree on the other (bench/cpu-placement.mjs).
    const fixed = await interleavedWindows(rows, 1, true);
    for (const row of rows) row.result.c1Fixed = fixed.get(row);
  }
  const noPolling = idlePollingUnavailable();
  if (noPolling !== undefined) {
    for (const row of rows) row.result.c1PollingSkipped = noPolling;
    return;
  }
  // And once more with idle CPUs held polling: no halted vCPU to wake (bench/idle-polling.mjs), free placement.
  const driver = idleDriver();
  const release = holdIdlePolling();
  try {
    const polling = await interleavedWindows(rows, 1);
    for (const row of rows) row.result.c1Polling = { ...polling.get(row), idleDriver: driver };
  } finally {
    release();
  }
}

/**
 * The rows' turns at `connections`, ROUNDS rounds of 1 s windows, the order rotated each round; each
 * row's windows combined. `fixed`: each window with wrk and the row on CPUs of their own, the row put
 * back on the worker's CPUs after it.
 */
async function interleavedWindows(rows, connections, fixed = false) {
  const windows = new Map(rows.map((row) => [row, []]));
  const cpus = fixed ? ownCpus() : undefined;
  for (let round = 0; round < ROUNDS; round++) {
    for (let turn = 0; turn < rows.length; turn++) {
      const row = rows[(turn + round) % rows.length];
      if (fixed) placeTree(row.pid, String(ROW_CPU));
      try {
        const before = cpuTicks(row.pid);
        const figures = await runWrk(row.url, connections, WINDOW_SECONDS, row.request, fixed ? LOAD_CPU : undefined);
        windows.get(row).push({ ...figures, ticks: cpuTicks(row.pid) - before });
      } finally {
        if (fixed) placeTree(row.pid, cpus);
      }
    }
  }
  return new Map(rows.map((row) => [row, combine(windows.get(row))]));
}

/** One row's figures at one connection count from its windows. */
function combine(windows) {
  const sum = (key) => windows.reduce((total, window) => total + window[key], 0);
  const middle = (key) => median(windows.map((window) => window[key]));
  const calls = sum('good') + sum('bad');
  return {
    callsPerSecond: sum('good') / (sum('durationUs') / 1e6),
    cpuUsPerCall: calls === 0 ? undefined : (sum('ticks') * 1e6) / CLK_TCK / calls,
    p50Us: middle('p50Us'),
    p99Us: middle('p99Us'),
    meanUs: calls === 0 ? undefined : windows.reduce((total, window) => total + window.meanUs * (window.good + window.bad), 0) / calls,
    maxUs: Math.max(...windows.map((window) => window.maxUs)),
    errors: sum('bad') + sum('socketErrors'),
    calls,
    windows: windows.length,
  };
}

async function p50Of(count, run) {
  const times = [];
  for (let index = 0; index < count; index++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1] * 1000;
}

async function measureList(url, headers, result) {
  const sessionHeaders = await openSession(url, headers);
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
  let count = 0;
  const viaGateway = async () => {
    const answer = await post(url, sessionHeaders, body);
    count = messageOf(answer.body).result.tools.length;
  };
  const raw = await RawClient.connect(process.execPath, [serverScript, '--extra-tools', '1000', '--cache-list'], serverEnv());
  const direct = async () => {
    count = Math.min(count, (await raw.request('tools/list', {})).tools.length);
  };
  try {
    const rounds = quick ? 30 : 60;
    await p50Of(5, viaGateway);
    await p50Of(5, direct);
    result.listGatewayP50Us = await p50Of(rounds, viaGateway);
    result.listDirectP50Us = await p50Of(rounds, direct);
    result.listTools = count;
    if (count < 1_000) throw new Error(`the listing had ${count} tools, not 1,003`);
  } finally {
    raw.close?.();
  }
}

async function measureSessions(url, headers, pid, result) {
  // One socket per session would measure sockets; sessions share a few keep-alive connections.
  const lean = new http.Agent({ keepAlive: true, maxSockets: 8 });
  await openSession(url, headers, { agent: lean });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = rssKiB(pid);
  const batch = 50;
  for (let opened = 0; opened < SESSIONS; opened += batch) {
    await Promise.all(Array.from({ length: batch }, () => openSession(url, headers, { agent: lean })));
  }
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  result.sessions = SESSIONS;
  result.rssPerSessionAt1sKiB = (rssKiB(pid) - before) / SESSIONS;
  // Idle: V8 shrinks its heap a few seconds after allocation stops; the settled RSS is what idle sessions cost.
  let last = rssKiB(pid);
  for (let waited = 0; waited < 15_000; waited += 1_000) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const now = rssKiB(pid);
    if (Math.abs(now - last) < 64) break;
    last = now;
  }
  result.rssPerSessionKiB = (rssKiB(pid) - before) / SESSIONS;
  // The cap (maxSessionsPerUser, here SESSIONS + 2: the ready probe and the warm-up hold one each) holds, with a clear refusal.
  const refused = await post(url, headers, INITIALIZE, { agent: lean });
  result.capStatus = refused.status;
  result.capMessage = messageOf(refused.body)?.error?.message;
  lean.destroy();
}

/** Starts row `gatewayName` of this scenario, or says why it is skipped. */
function startRow(gatewayName) {
  const gateway = gatewayName === 'floor' ? floor : gatewayOf(gatewayName);
  const result = { gateway: gatewayName, scenario, label: gateway.label };
  const why = gateway.available();
  if (why !== undefined) return { result: { ...result, skipped: why } };
  if (scenario === '2026' && gatewayName !== 'floor' && gatewayName !== 'switchboard') return { result: { ...result, skipped: 'speaks only the 2025-era protocol' } };
  if (scenario === 'sessions' && gatewayName !== 'switchboard') return { result: { ...result, skipped: 'measured for switchboard only' } };
  return { result, gateway };
}

async function launch(row) {
  const port = await freePort();
  const args = scenario === 'list' ? [serverScript, '--extra-tools', '1000', '--cache-list'] : [serverScript];
  row.started = row.gateway.start({ command: process.execPath, args, port, env: serverEnv(), ...(scenario === 'sessions' ? { extraArgs: ['--limit', `maxSessionsPerUser=${SESSIONS + 2}`] } : {}) });
  row.started.process?.stderr?.on('data', (chunk) => process.stderr.write(chunk));
  row.url = row.started.url;
  row.pid = row.started.process?.pid;
  row.headers = row.started.headers ?? {};
  await waitReady(row.url, row.headers);
}

/** `NAME` is a row, or `interleaved` (the 2025/2026 calls scenarios: every row, see {@link measureInterleaved}). */
async function main() {
  const interleaved = name === 'interleaved';
  if (interleaved !== (scenario === '2025' || scenario === '2026')) throw new Error(`scenario ${scenario} is measured ${interleaved ? 'per row, not interleaved' : 'interleaved (NAME interleaved)'}`);
  const rows = (interleaved ? WRK_GATEWAYS : [name]).map(startRow);
  const running = rows.filter((row) => row.gateway !== undefined);
  // A row this scenario does not measure (e.g. `sessions` for a peer) is recorded as skipped.
  if (!interleaved && running.length === 0) return rows[0].result;
  try {
    for (const row of running) await launch(row);
    if (interleaved) await measureInterleaved(running);
    else if (scenario === 'list') await measureList(running[0].url, running[0].headers, running[0].result);
    else if (scenario === 'sessions') await measureSessions(running[0].url, running[0].headers, running[0].pid, running[0].result);
    return interleaved ? rows.map((row) => row.result) : rows[0].result;
  } finally {
    agent.destroy();
    for (const row of running) {
      await killGroup(row.started?.process);
      row.started?.cleanup?.();
    }
  }
}

main().then(
  (result) => {
    writeFileSync(outFile, JSON.stringify(result));
    process.exit(0);
  },
  (error) => {
    writeFileSync(outFile, JSON.stringify({ gateway: name, scenario, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
    process.exit(1);
  },
);
