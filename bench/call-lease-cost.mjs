#!/usr/bin/env node
// What a cluster-wide call lease costs per call, against the built package (npm run build first):
//   node bench/call-lease-cost.mjs [postgres://…/postgres]
// On a fresh database (created and dropped here): one PostgreSQL round trip (`select 1`) as the
// floor, a lease take, a release, and ClusterCallLimiter.run of an empty call with two live
// replicas (what a limited call pays in a cluster), sequential and 8 at once for one user (the
// per-user advisory lock serializes takes) and for 8 users. µs of wall time and of this process's CPU per op.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ServerRegistry } from '../dist/registry/index.js';
import { ClusterCallLimiter } from '../dist/pool/index.js';

const admin = process.argv[2] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const COUNT = 2_000;
const noop = { debug() {}, info() {}, warn() {}, error() {}, child() { return noop; } };

async function time(label, count, task, parallel = 1) {
  for (let index = 0; index < 100; index++) await task(index % parallel); // warm-up
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: parallel }, async (_, worker) => {
    for (let index = 0; index < count / parallel; index++) await task(worker);
  }));
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const perOpUs = (wall * 1000) / count;
  console.log(`${label.padEnd(58)} ${perOpUs.toFixed(0).padStart(6)} µs/op  ${((used.user + used.system) / count).toFixed(0).padStart(5)} µs CPU/op  ${(count / (wall / 1000)).toFixed(0).padStart(6)} ops/s`);
}

const name = `sb_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const adminClient = new pg.Client({ connectionString: admin });
await adminClient.connect();
await adminClient.query(`create database ${name}`);
const url = new URL(admin);
url.pathname = `/${name}`;
const dir = mkdtempSync(join(tmpdir(), 'sb-lease-bench-'));
const registry = await ServerRegistry.open({ db: url.toString(), keyFile: join(dir, 'secret.key') });
const floor = new pg.Pool({ connectionString: url.toString(), max: 10 });
try {
  await registry.cluster.heartbeat({ id: 'r1', url: undefined, startedAt: new Date().toISOString() });
  await registry.cluster.heartbeat({ id: 'r2', url: undefined, startedAt: new Date().toISOString() });
  const beat = setInterval(() => void registry.cluster.heartbeat({ id: 'r1', url: undefined, startedAt: '' }).catch(() => {}), 2_000);
  const request = (userId, limit) => {
    const now = Date.now();
    return { id: randomUUID(), userId, replicaId: 'r1', limit, nowMs: now, expiresMs: now + 10_000, liveSince: new Date(now - 10_000) };
  };
  console.log(`PostgreSQL ${(await floor.query('show server_version')).rows[0].server_version}, ${COUNT} ops each`);
  await time('one round trip (select 1), the floor', COUNT, () => floor.query('select 1'));
  const taken = [];
  await time('take a lease (user at 0 to 8 leases; released after)', COUNT, async () => {
    const lease = request('u-take', 1_000_000);
    await registry.callLeases.take(lease);
    taken.push(lease.id);
    if (taken.length === 8) await Promise.all(taken.splice(0).map((id) => registry.callLeases.release(id, 1_000_000)));
  });
  await time('take + release, both awaited (limit 8, never full)', COUNT, async () => {
    const lease = request('u-pair', 8);
    await registry.callLeases.take(lease);
    await registry.callLeases.release(lease.id, 8);
  });
  {
    // The database's own work, without a round trip: take + release in a loop inside PostgreSQL.
    const started = performance.now();
    await floor.query(`do $$ begin for i in 1..${COUNT} loop perform switchboard_take_call_lease('do-' || i, 'u-do', 'r1', 8, 0, 10, ''); perform switchboard_release_call_lease('do-' || i, 8, 0); end loop; end $$`);
    console.log(`${'take + release inside PostgreSQL (no round trip)'.padEnd(58)} ${(((performance.now() - started) * 1000) / COUNT).toFixed(0).padStart(6)} µs/op`);
  }
  const limiter = new ClusterCallLimiter(registry, { replicaId: () => 'r1', liveReplicas: () => 2, replicaExpiryMs: 10_000 }, { logger: noop });
  const alone = new ClusterCallLimiter(registry, { replicaId: () => 'r1', liveReplicas: () => 1, replicaExpiryMs: 10_000 }, { logger: noop });
  const empty = async () => undefined;
  await time('ClusterCallLimiter.run, replica alone (no database)', COUNT, () => alone.run({ id: 'u-alone', name: 'a' }, 8, empty, { waitMs: 30_000 }));
  await time('ClusterCallLimiter.run, 2 live replicas, sequential', COUNT, () => limiter.run({ id: 'u-seq', name: 's' }, 8, empty, { waitMs: 30_000 }));
  await time('ClusterCallLimiter.run, 2 live, 8 at once, one user (limit 8)', COUNT, () => limiter.run({ id: 'u-one', name: 'o' }, 8, empty, { waitMs: 30_000 }), 8);
  await time('ClusterCallLimiter.run, 2 live, 8 at once, 8 users', COUNT, (worker) => limiter.run({ id: `u-${worker}`, name: 'w' }, 8, empty, { waitMs: 30_000 }), 8);
  limiter.close();
  alone.close();
  clearInterval(beat);
} finally {
  await floor.end();
  await registry.close();
  await adminClient.query(`drop database ${name} with (force)`);
  await adminClient.end();
  rmSync(dir, { recursive: true, force: true });
}
