/**
 * One gateway row in a fresh process (`node bench/gateway-worker.mjs NAME gateway OUT_FILE [--quick]`):
 * starts the gateway in front of the stdio echo server, then measures sequential p50/p99 and calls/s at
 * 64 in flight through it with the SDK v1 client. Writes JSON to OUT_FILE; a gateway that cannot run
 * here is reported as `{ skipped: why }`.
 */

import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serverEnv } from './clients.mjs';
import { gatewayOf } from './gateways.mjs';
import { freePort } from './free-port.mjs';

const [name, , outFile, ...flags] = process.argv.slice(2);
const quick = flags.includes('--quick');
const SIZES = quick ? { seqWarm: 100, seq: 400, parWarm: 200, par: 1000 } : { seqWarm: 200, seq: 1000, parWarm: 300, par: 3000 };
const READY_TIMEOUT_MS = 20_000;
const serverScript = fileURLToPath(new URL('./echo-server.mjs', import.meta.url));

async function connectHttp(url, deadline, headers) {
  for (;;) {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), headers === undefined ? undefined : { requestInit: { headers } }));
      return client;
    } catch (error) {
      await client.close().catch(() => {});
      if (Date.now() > deadline) throw new Error(`the gateway did not answer at ${url} within ${READY_TIMEOUT_MS} ms: ${error.message}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
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
      // Whatever the gateway started (the stdio server) is in its group.
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

async function measure(client, result) {
  const echo = () => client.callTool({ name: 'echo', arguments: { text: 'hello' } });
  for (let index = 0; index < SIZES.seqWarm; index++) await echo();
  const times = [];
  for (let index = 0; index < SIZES.seq; index++) {
    const started = performance.now();
    await echo();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  result.seqP50Us = times[times.length >> 1] * 1000;
  result.seqP99Us = times[Math.floor(times.length * 0.99)] * 1000;
  const lanes = async (total) => {
    let started = 0;
    await Promise.all(
      Array.from({ length: 64 }, async () => {
        while (started < total) {
          started++;
          await echo();
        }
      }),
    );
  };
  await lanes(SIZES.parWarm);
  const started = performance.now();
  await lanes(SIZES.par);
  result.par64CallsPerSecond = (SIZES.par / (performance.now() - started)) * 1000;
}

async function main() {
  const gateway = gatewayOf(name);
  const result = { gateway: name, label: gateway.label, packages: gateway.packages };
  const why = gateway.available();
  if (why !== undefined) return { ...result, skipped: why };
  let child;
  let client;
  let started;
  try {
    if (name === 'direct') {
      client = new Client({ name: 'bench', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverScript], env: serverEnv() }));
    } else {
      const port = await freePort();
      started = gateway.start({ command: process.execPath, args: [serverScript], port, env: serverEnv() });
      child = started.process;
      child?.stderr?.on('data', (chunk) => process.stderr.write(chunk));
      // A gateway whose headers come only once it runs (an OAuth access token) says so with `ready`.
      const headers = started.ready === undefined ? started.headers : await started.ready;
      client = await connectHttp(started.url, Date.now() + READY_TIMEOUT_MS, headers);
    }
    await measure(client, result);
    return result;
  } finally {
    await client?.close().catch(() => {});
    await killGroup(child);
    started?.cleanup?.();
  }
}

main().then(
  (result) => {
    writeFileSync(outFile, JSON.stringify(result));
    process.exit(0);
  },
  (error) => {
    writeFileSync(outFile, JSON.stringify({ gateway: name, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }));
    process.exit(1);
  },
);
