// The server under test for the conformance suite's server scenarios (used by scripts/conformance.mjs).
//
// - kind 'gateway': `switchboard serve` on a free loopback port, in front of
//   test/fixtures/servers/conformance-server.mjs over stdio with `naming: none` (the suite calls the
//   fixture's tool, resource and prompt names unprefixed), a temporary registry database, and a
//   random SWITCHBOARD_TOKEN.
// - kind 'fixture' (`--server-target fixture`): the fixture alone over Streamable HTTP (`--http 0`),
//   to tell a fault of the gateway from one of the fixture.
//
// The suite's runner cannot send custom headers (neither 0.1.16 nor 0.2.0-alpha.12 has an option for
// it), but the gateway requires a bearer token on every /mcp request. So the runner talks to a
// loopback proxy that adds `Authorization: Bearer <token>` and otherwise forwards each request as it
// came, streaming both ways. Host and Origin pass through with only their port moved from the proxy's
// to the target's, so the gateway's DNS-rebinding checks see exactly the hostnames the runner sent
// (`dns-rebinding-protection` sends evil.example.com and must get a 4xx). The gateway keeps its auth
// on: no insecure mode exists for the sake of the suite.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** How long the gateway (or fixture) may take to answer its health check after it is spawned. */
const START_DEADLINE_MS = 30_000;
/** How long a graceful stop (SIGTERM, or stdin EOF for the fixture) may take before SIGKILL. */
const STOP_DEADLINE_MS = 10_000;
/** Output kept from the target, shown when it fails to start. */
const OUTPUT_LIMIT_CHARS = 8_000;

/**
 * Starts the target and the auth proxy in front of it.
 * @returns {Promise<{ url: string, label: string, stop: () => Promise<void> }>} `url` is the proxy's /mcp.
 */
export async function startServerTarget({ root, kind }) {
  const fixture = resolve(root, 'test/fixtures/servers/conformance-server.mjs');
  const token = randomBytes(32).toString('base64url');
  const directory = mkdtempSync(join(tmpdir(), 'switchboard-conformance-'));
  let child;
  let proxy;
  const stop = async () => {
    await proxy?.close();
    if (child !== undefined) await stopChild(child, kind === 'fixture');
    rmSync(directory, { recursive: true, force: true });
  };
  try {
    let targetPort;
    if (kind === 'gateway') {
      const config = join(directory, 'switchboard.json');
      writeFileSync(config, `${JSON.stringify({ naming: 'none', servers: { conformance: { command: process.execPath, args: [fixture] } } }, null, 2)}\n`);
      targetPort = await findFreePort();
      child = spawnGroup(
        process.execPath,
        [resolve(root, 'bin/switchboard.js'), 'serve', '--config', config, '--host', '127.0.0.1', '--port', String(targetPort), '--db', join(directory, 'switchboard.db')],
        { cwd: directory, env: { ...process.env, SWITCHBOARD_TOKEN: token }, stdin: 'ignore' },
      );
      await waitForGateway(child, targetPort, token);
    } else {
      child = spawnGroup(process.execPath, [fixture, '--http', '0'], { cwd: root, env: process.env, stdin: 'pipe' });
      targetPort = await waitForListening(child);
    }
    proxy = await startAuthProxy(targetPort, token);
    const label =
      kind === 'gateway'
        ? '`switchboard serve` (the gateway) in front of `test/fixtures/servers/conformance-server.mjs` over stdio, `naming: none`'
        : 'the fixture server alone, `test/fixtures/servers/conformance-server.mjs --http` — NOT the gateway (--server-target fixture)';
    return { url: `http://127.0.0.1:${proxy.port}/mcp`, label, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Spawns a process in its own group (so a stop reaches whatever it started) and keeps its output tail. */
function spawnGroup(command, args, { cwd, env, stdin }) {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: [stdin, 'pipe', 'pipe'] });
  child.output = '';
  const keep = (chunk) => {
    child.output = (child.output + chunk).slice(-OUTPUT_LIMIT_CHARS);
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  child.exited = new Promise((resolvePromise) => child.on('exit', (code, signal) => resolvePromise({ code, signal })));
  child.on('error', (error) => keep(`\nspawn failed: ${error.message}\n`));
  return child;
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already empty
  }
}

/** Graceful stop within STOP_DEADLINE_MS, then SIGKILL; the group is killed at the end either way. */
async function stopChild(child, viaStdin) {
  if (child.exitCode === null && child.signalCode === null) {
    if (viaStdin) child.stdin.end();
    else child.kill('SIGTERM');
    let timer;
    const deadline = new Promise((resolvePromise) => (timer = setTimeout(resolvePromise, STOP_DEADLINE_MS)));
    await Promise.race([child.exited, deadline]);
    clearTimeout(timer);
  }
  // Anything the target left behind (an upstream it failed to close) ends here.
  killGroup(child, 'SIGKILL');
  await child.exited;
}

function findFreePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePromise(port));
    });
  });
}

function startFailure(child, message) {
  const output = child.output.trim();
  return new Error(`${message}${output === '' ? '' : `\n--- its output (last ${OUTPUT_LIMIT_CHARS} chars) ---\n${output}`}`);
}

/** Resolves with the port the fixture prints as `listening <port>` on stderr. */
function waitForListening(child) {
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => finish(startFailure(child, `the fixture did not listen within ${START_DEADLINE_MS} ms`)), START_DEADLINE_MS);
    const onData = () => {
      const match = /listening (\d+)/.exec(child.output);
      if (match) finish(undefined, Number(match[1]));
    };
    const onExit = () => finish(startFailure(child, 'the fixture exited before it listened'));
    function finish(error, port) {
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolvePromise(port);
    }
    child.stderr.on('data', onData);
    child.on('exit', onExit);
    onData();
  });
}

/** Status of GET path on the target, or undefined when it does not answer. */
function probe(port, path, token) {
  return new Promise((resolvePromise) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'GET', headers: { authorization: `Bearer ${token}` }, timeout: 2_000 }, (response) => {
      response.resume();
      resolvePromise(response.statusCode);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolvePromise(undefined));
    request.end();
  });
}

/**
 * Waits until /healthz answers 200 and, when the gateway has /readyz, until that answers 200 too (the
 * upstream fixture is connected), polling every 100 ms up to START_DEADLINE_MS.
 */
async function waitForGateway(child, port, token) {
  const deadline = Date.now() + START_DEADLINE_MS;
  let healthy = false;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw startFailure(child, `\`switchboard serve\` exited (${child.exitCode ?? child.signalCode}) before it was ready`);
    if (!healthy) healthy = (await probe(port, '/healthz', token)) === 200;
    if (healthy) {
      const ready = await probe(port, '/readyz', token);
      if (ready === 200 || ready === 404) return;
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
  throw startFailure(child, `\`switchboard serve\` was not ready on 127.0.0.1:${port} within ${START_DEADLINE_MS} ms (${healthy ? '/readyz' : '/healthz'} did not answer 200)`);
}

/** `host[:port]` with the proxy's port replaced by the target's; any other value unchanged. */
function retargetHost(host, fromPort, toPort) {
  return typeof host === 'string' && host.endsWith(`:${fromPort}`) ? `${host.slice(0, -String(fromPort).length)}${toPort}` : host;
}

function retargetOrigin(origin, fromPort, toPort) {
  if (typeof origin !== 'string') return origin;
  try {
    const url = new URL(origin);
    if (url.port !== String(fromPort)) return origin;
    url.port = String(toPort);
    return url.origin;
  } catch {
    return origin; // not a URL: let the target judge it
  }
}

/** A loopback HTTP proxy to 127.0.0.1:targetPort that adds the bearer token and streams both ways. */
function startAuthProxy(targetPort, token) {
  const sockets = new Set();
  const server = createServer((request, response) => {
    const { port } = server.address();
    const headers = {
      ...request.headers,
      host: retargetHost(request.headers.host, port, targetPort),
      authorization: `Bearer ${token}`,
    };
    if (request.headers.origin !== undefined) headers.origin = retargetOrigin(request.headers.origin, port, targetPort);
    const upstream = httpRequest({ host: '127.0.0.1', port: targetPort, method: request.method, path: request.url, headers }, (upstreamResponse) => {
      response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      // SSE: the client waits for the headers before the first event arrives.
      response.flushHeaders();
      upstreamResponse.on('error', () => response.destroy());
      upstreamResponse.pipe(response);
    });
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' }).end(`conformance proxy: ${error.message}`);
      else response.destroy();
    });
    // The runner closing a stream (an SSE GET, a cancelled call) closes it at the target too.
    response.on('close', () => {
      if (!response.writableFinished) upstream.destroy();
    });
    request.on('error', () => upstream.destroy());
    request.pipe(upstream);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () =>
      resolvePromise({
        port: server.address().port,
        close: () =>
          new Promise((resolveClose) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => resolveClose());
          }),
      }),
    );
  });
}
