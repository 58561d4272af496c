/**
 * One row of the cluster case (issue 20) in a fresh process (`node bench/cluster-worker.mjs ROW SCENARIO
 * OUT_FILE [--quick]`): a fresh PostgreSQL database, N replicas of the built `switchboard serve` on it
 * (one secret key, one token, the stdio echo server as their one server) and, for the `haproxy-N` rows,
 * a real HAProxy running deploy/haproxy.cfg as deployed (its bind port, stats socket and server lines
 * rewritten to this run's). wrk POSTs `tools/call echo` at 8 and 64 connections:
 * - `2025`: one session (`initialize` once, through the front), then calls with its sealed Mcp-Session-Id,
 *   which every replica resumes;
 * - `2026`: stateless 2026-07-28 requests.
 * Rows: `direct-1` (wrk straight to one replica: what HAProxy costs), `haproxy-1`, `haproxy-3`.
 * CPU per call is summed over the replica processes (/proc/PID/stat; the echo servers, their children,
 * are not in it); HAProxy's own is given apart. Skipped, with the reason, without PostgreSQL or HAProxy.
 */

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverEnv } from './clients.mjs';
import { CLK_TCK, cpuTicks, runWrk } from './wrk-run.mjs';
import { freePort } from './free-port.mjs';

const [row, scenario, outFile, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
const SECONDS = quick ? 2 : 4;
const CONNECTIONS = [8, 64];
const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const HAPROXY = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';
const POSTGRES_ADMIN_URL = process.env.SWITCHBOARD_TEST_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const agent = new http.Agent({ keepAlive: false });

function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

async function waitFor(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Why this machine cannot run the case, or undefined. */
async function missing() {
  if (spawnSync(HAPROXY, ['-v']).status !== 0) return `${HAPROXY} is missing (apt-get install -y haproxy)`;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (error) {
    return `no PostgreSQL at ${POSTGRES_ADMIN_URL.replace(/\/\/[^@]*@/, '//')} (${error instanceof Error ? error.message : String(error)}); set SWITCHBOARD_TEST_POSTGRES`;
  } finally {
    await client.end().catch(() => {});
  }
  return undefined;
}

async function adminQuery(text) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

function startReplica({ config, db, port, token, secretKey, home }) {
  const child = spawn(process.execPath, [`${root}bin/switchboard.js`, 'serve', '--config', config, '--db', db, '--port', String(port), '--quiet'], {
    cwd: root,
    env: { ...serverEnv(), PATH: process.env.PATH ?? '', HOME: home, SWITCHBOARD_TOKEN: token, SWITCHBOARD_SECRET_KEY: secretKey, NO_COLOR: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  const url = `http://127.0.0.1:${port}`;
  const ready = waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 30_000, `the replica on port ${port} to be ready`);
  return { child, url, ready };
}

/** deploy/haproxy.cfg as deployed, with this run's frontend port, stats socket and `servers`. */
function haproxyConfig(ports, bindPort, socketPath) {
  const text = readFileSync(`${root}deploy/haproxy.cfg`, 'utf8');
  const lines = text.split('\n').filter((line) => !/^\s*server r\d+ /.test(line));
  const config = lines
    .join('\n')
    .replace(/^(\s*)bind \S+$/m, `$1bind 127.0.0.1:${bindPort}`)
    .replace(/^(\s*)stats socket \S+/m, `$1stats socket ${socketPath}`);
  return `${config.trimEnd()}\n${ports.map((port, index) => `  server r${index + 1} 127.0.0.1:${port}`).join('\n')}\n`;
}

function upServers(socketPath) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () => socket.write('show stat\n'));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer.split('\n').filter((line) => line.startsWith('switchboard,r') && line.split(',')[17] === 'UP').length));
  });
}

function stop(child, timeoutMs = 10_000) {
  if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    // The replicas lead process groups of their own (detached); HAProxy does not.
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
  });
}

async function callOf(url, headers) {
  if (scenario === '2025') {
    const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cluster-bench', version: '1.0.0' } } };
    const answer = await post(url, headers, initialize);
    if (answer.status !== 200) throw new Error(`initialize answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    const sessionHeaders = { ...headers, 'mcp-protocol-version': '2025-06-18', 'mcp-session-id': answer.headers['mcp-session-id'] };
    await post(url, sessionHeaders, { jsonrpc: '2.0', method: 'notifications/initialized' });
    return { headers: sessionHeaders, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } } };
  }
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'cluster-bench', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': {} };
  return {
    headers: { ...headers, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } },
  };
}

async function main() {
  const match = /^(direct|haproxy)-(\d+)$/.exec(row ?? '');
  if (match === null || !['2025', '2026'].includes(scenario)) throw new Error(`usage: cluster-worker.mjs direct-1|haproxy-N 2025|2026 OUT_FILE [--quick] (got ${row} ${scenario})`);
  const viaHaproxy = match[1] === 'haproxy';
  const count = Number(match[2]);
  const result = { row, scenario, replicas: count, viaHaproxy };
  const why = await missing();
  if (why !== undefined) return { ...result, skipped: why };

  const dir = mkdtempSync(join(tmpdir(), 'sb-bench-cluster-'));
  const database = `sb_bench_cluster_${randomBytes(4).toString('hex')}`;
  const db = POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
  const config = join(dir, 'switchboard.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [`${benchDir}echo-server.mjs`], env: serverEnv() } } }));
  const token = randomBytes(32).toString('hex');
  const secretKey = randomBytes(32).toString('base64');
  const replicas = [];
  let haproxy;
  await adminQuery(`create database ${database}`);
  try {
    const ports = [];
    for (let index = 0; index < count; index++) ports.push(await freePort());
    // The first one migrates the database and creates the administrator; the others join it.
    replicas.push(startReplica({ config, db, port: ports[0], token, secretKey, home: dir }));
    await replicas[0].ready;
    for (const port of ports.slice(1)) replicas.push(startReplica({ config, db, port, token, secretKey, home: dir }));
    await Promise.all(replicas.map((replica) => replica.ready));
    let url = `${replicas[0].url}/mcp`;
    if (viaHaproxy) {
      const bindPort = await freePort();
      const socketPath = join(dir, 'haproxy.sock');
      const configPath = join(dir, 'haproxy.cfg');
      writeFileSync(configPath, haproxyConfig(ports, bindPort, socketPath));
      haproxy = spawn(HAPROXY, ['-f', configPath, '-db'], { stdio: ['ignore', 'ignore', 'pipe'] });
      haproxy.stderr.on('data', (chunk) => process.stderr.write(chunk));
      await waitFor(async () => (await upServers(socketPath)) === count, 15_000, `HAProxy to see ${count} replicas up`);
      url = `http://127.0.0.1:${bindPort}/mcp`;
      result.haproxyConfig = 'deploy/haproxy.cfg';
    }
    const call = await callOf(url, { authorization: `Bearer ${token}` });
    const request = { ...call, expect: '"text":"hello"' };
    const probe = await post(url, call.headers, call.body);
    if (probe.status !== 200 || !probe.body.includes(request.expect)) throw new Error(`tools/call answered ${probe.status}: ${probe.body.slice(0, 300)}`);
    await runWrk(url, 8, 1, request);
    const pids = replicas.map((replica) => replica.child.pid);
    for (const connections of CONNECTIONS) {
      const before = pids.map(cpuTicks);
      const haproxyBefore = haproxy === undefined ? 0 : cpuTicks(haproxy.pid);
      const figures = await runWrk(url, connections, SECONDS, request);
      const ticks = pids.map((pid, index) => cpuTicks(pid) - before[index]);
      const haproxyTicks = haproxy === undefined ? undefined : cpuTicks(haproxy.pid) - haproxyBefore;
      const calls = figures.good + figures.bad;
      const perCall = (value) => (calls === 0 || value === undefined ? undefined : (value * 1e6) / CLK_TCK / calls);
      result[`c${connections}`] = {
        callsPerSecond: figures.good / (figures.durationUs / 1e6),
        cpuUsPerCall: perCall(ticks.reduce((sum, value) => sum + value, 0)),
        cpuShares: ticks.map((value) => value / Math.max(1, ticks.reduce((sum, one) => sum + one, 0))),
        haproxyCpuUsPerCall: perCall(haproxyTicks),
        p50Us: figures.p50Us,
        p99Us: figures.p99Us,
        errors: figures.bad + figures.socketErrors,
        calls,
      };
    }
    return result;
  } finally {
    agent.destroy();
    await stop(haproxy);
    await Promise.all(replicas.map((replica) => stop(replica.child)));
    await adminQuery(`drop database if exists ${database} with (force)`).catch((error) => process.stderr.write(`could not drop ${database}: ${error.message}\n`));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (result) => {
    writeFileSync(outFile, JSON.stringify(result));
    process.exit(0);
  },
  (error) => {
    writeFileSync(outFile, JSON.stringify({ row, scenario, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
    process.exit(1);
  },
);
