/**
 * A gateway cluster for the cluster-wide views test (issue 20): one PostgreSQL database, three
 * replicas of the built `switchboard serve` (one secret key, one admin token, the kitchen-sink
 * fixture as the shared server `sink`), a user `tess` with a token, and a real HAProxy in front with
 * deploy/haproxy.cfg's backend (round-robin, no stickiness). `close()` ends everything it started.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from '../../src/registry/secret-box.js';
import { ServerRegistry } from '../../src/registry/server-registry.js';
import { KITCHEN_SINK, freePort } from './fixtures.js';
import { newToken } from './gateway-process.js';
import { startHaproxy, type RunningHaproxy } from './haproxy.js';
import { waitFor } from './processes.js';
import { createTestDatabase, type TestDatabase } from './registry-backends.js';
import { startReplica, type ReplicaProcess } from './replica-process.js';
import { deployedBackend } from './cluster-test-bed.js';

/** A running cluster. */
export interface ViewsCluster {
  replicas: ReplicaProcess[];
  /** Each replica's id (its `/api/cluster` answer), in the order of {@link replicas}. */
  ids: string[];
  haproxy: RunningHaproxy;
  adminToken: string;
  /** The token of `tess`, an ordinary user. */
  userToken: string;
  close(): Promise<void>;
}

/** Starts the cluster; on a failure, whatever started is closed again. */
export async function startViewsCluster(): Promise<ViewsCluster> {
  const adminToken = newToken('admin');
  const secretKey = SecretBox.formatKey(SecretBox.generateKey());
  const dir = mkdtempSync(join(tmpdir(), 'sb-cluster-views-'));
  const config = join(dir, 'switchboard.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } }));
  const replicas: ReplicaProcess[] = [];
  let database: TestDatabase | undefined;
  let registry: ServerRegistry | undefined;
  let haproxy: RunningHaproxy | undefined;
  // Every step runs even when an earlier one throws; the first failure is reported.
  const close = async (): Promise<void> => {
    const steps = [() => haproxy?.close(), () => Promise.all(replicas.map((replica) => replica.close())), () => registry?.close(), () => database?.drop()];
    const failures: unknown[] = [];
    for (const step of steps) await Promise.resolve(step()).catch((error: unknown) => failures.push(error));
    rmSync(dir, { recursive: true, force: true });
    if (failures.length > 0) throw failures[0];
  };
  try {
    database = await createTestDatabase('postgres');
    const db = database.db;
    const start = (port: number): Promise<ReplicaProcess> => startReplica({ config, db, port, cwd: dir, token: adminToken, secretKey });
    const ports = [await freePort(), await freePort(), await freePort()];
    // The first one migrates the database and creates the administrator; the others join it.
    replicas.push(await start(ports[0] ?? 0));
    replicas.push(...(await Promise.all(ports.slice(1).map((port) => start(port)))));
    registry = await ServerRegistry.open({ db, secretKey, watch: false });
    const tess = await registry.users.add('tess');
    const userToken = (await registry.tokens.create(tess)).token;
    const started = await startHaproxy([{ name: 'switchboard', lines: deployedBackend(ports) }]);
    haproxy = started;
    await waitFor(async () => (await started.servers()).filter((server) => server.status === 'UP').length === 3, 15_000, 'HAProxy to see three replicas up');
    const ids = await Promise.all(replicas.map(async (replica) => ((await (await fetch(`${replica.url}/api/cluster`, { headers: { authorization: `Bearer ${adminToken}` } })).json()) as { replica: string }).replica));
    return { replicas, ids, haproxy: started, adminToken, userToken, close };
  } catch (error) {
    await close();
    throw error;
  }
}
