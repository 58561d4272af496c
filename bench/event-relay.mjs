#!/usr/bin/env node
/**
 * The cost of the cluster's event relay (issue 20, docs/scaling.md "Cluster-wide views"), on the
 * built code (`npx tsc -p tsconfig.json` first) and a local PostgreSQL:
 *
 *   node bench/event-relay.mjs [postgres://postgres@127.0.0.1:5432/postgres] [--events N]
 *
 * 1. One NOTIFY on `switchboard_events` through the registry's pool: wall time and this process's CPU,
 *    with a small payload and with a full one (7.9 KB), sequential.
 * 2. The relay on the call path: a user watched on "another replica" (a second registry on the same
 *    database announces a watcher), N calls' `tool-call-start` + `tool-call-end` emitted in bursts of
 *    100 every 20 ms (5,000 calls/s, more than one replica serves) on a stand-in user client; measured: CPU per call in the emitting process (queueing, packing,
 *    NOTIFY; the receiving side is the second registry in the same process, so its parsing is
 *    included), NOTIFYs sent, calls per NOTIFY, and that every event arrived.
 * Creates and drops its own database.
 */

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ServerRegistry } from '../dist/registry/server-registry.js';
import { ClusterEventRelay } from '../dist/gateway/cluster-event-relay.js';
import { TypedEmitter } from '../dist/util/typed-emitter.js';
import { noopLogger } from '../dist/logger.js';

const args = process.argv.slice(2);
const adminUrl = args.find((arg) => arg.startsWith('postgres')) ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const eventsAt = args.indexOf('--events');
const CALLS = eventsAt >= 0 ? Number(args[eventsAt + 1]) : 10_000;
const NOTIFIES = 2_000;

async function admin(text) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

const name = `sb_bench_relay_${randomBytes(4).toString('hex')}`;
await admin(`create database ${name}`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const secretKey = randomBytes(32).toString('base64');
const here = await ServerRegistry.open({ db: url.toString(), secretKey });
const there = await ServerRegistry.open({ db: url.toString(), secretKey });
const relay = new ClusterEventRelay(here, 'bench-here', noopLogger);
try {
  // 1. NOTIFY alone.
  for (const [label, size] of [['small (200 B)', 200], ['full (7,900 B)', 7_900]]) {
    const payload = JSON.stringify({ kind: 'noise', replica: 'bench', pad: 'x'.repeat(size - 40) });
    for (let index = 0; index < 100; index++) await here.publishClusterMessages([payload]);
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let index = 0; index < NOTIFIES; index++) await here.publishClusterMessages([payload]);
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    console.log(`NOTIFY ${label}: ${((wall * 1000) / NOTIFIES).toFixed(0)} µs wall, ${((used.user + used.system) / NOTIFIES).toFixed(0)} µs CPU of this process (both registries' LISTEN included)`);
  }

  // 2. The relay (its statements counted).
  let statements = 0;
  const publish = here.publishClusterMessages.bind(here);
  here.publishClusterMessages = (payloads) => {
    statements++;
    return publish(payloads);
  };
  const client = new TypedEmitter();
  relay.track('user-1', client);
  let received = 0;
  let messages = 0;
  there.on('cluster-message', (payload) => {
    if (!payload.includes('"kind":"events"')) return;
    messages++;
    received += (payload.match(/"event":"tool-call-end"/g) ?? []).length;
  });
  const watched = new Promise((resolve) => {
    const check = setInterval(() => {
      if (relay.watchedElsewhere === 1) {
        clearInterval(check);
        resolve();
      }
    }, 5);
  });
  await there.publishClusterMessages([JSON.stringify({ kind: 'watch', replica: 'bench-there', users: ['user-1'] })]);
  await watched;
  statements = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const idle = CALLS / 100 * 20;
  for (let callId = 0; callId < CALLS; callId++) {
    const call = { callId, name: 'echo', server: 'sink', originalName: 'echo', userId: 'user-1' };
    client.emit('tool-call-start', call);
    client.emit('tool-call-end', { ...call, durationMs: 1, ok: true, isError: false });
    // Bursts of 100 calls every 20 ms.
    if (callId % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const deadline = Date.now() + 30_000;
  while (received < CALLS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  console.log(`relay: ${CALLS} calls (start + end events) in ${wall.toFixed(0)} ms (${idle} ms of it paced sleeps); ${received} ends arrived in ${messages} NOTIFYs (${(CALLS / Math.max(messages, 1)).toFixed(1)} calls per NOTIFY) sent by ${statements} statements; ${((used.user + used.system) / CALLS).toFixed(1)} µs CPU per call, sending and receiving`);
  if (received !== CALLS) process.exitCode = 1;
} finally {
  await relay.close();
  await here.close();
  await there.close();
  await admin(`drop database if exists ${name} with (force)`);
}
