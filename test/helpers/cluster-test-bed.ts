/**
 * A gateway cluster for an e2e test: three replicas of the built `switchboard serve` on one
 * PostgreSQL database (one secret key, one admin token, nothing else shared) with a kitchen-sink
 * server, behind a real HAProxy running deploy/haproxy.cfg's backend section (its `server` lines
 * pointed at the replicas' ports). `start(port)` adds a replica (a replacement); `close()` ends
 * everything it started and drops the database.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SecretBox } from '../../src/registry/secret-box.js';
import { ServerRegistry } from '../../src/registry/server-registry.js';
import { KITCHEN_SINK, ROOT, freePort } from './fixtures.js';
import { newToken } from './gateway-process.js';
import { haproxyMissing, startHaproxy, type RunningHaproxy } from './haproxy.js';
import { waitFor } from './processes.js';
import { createTestDatabase, postgresUnavailableReason, type TestDatabase } from './registry-backends.js';
import { startReplica, type ReplicaProcess } from './replica-process.js';

/** Why a cluster test cannot run here (no PostgreSQL, no HAProxy), or undefined; CI always runs it. */
export async function clusterTestBedMissing(): Promise<string | undefined> {
  return process.env.CI === 'true' ? undefined : ((await postgresUnavailableReason()) ?? haproxyMissing());
}

/** The backend section of deploy/haproxy.cfg (its directives as deployed), with its server lines pointed at `ports`. */
export function deployedBackend(ports: readonly number[]): string[] {
  const text = readFileSync(join(ROOT, 'deploy/haproxy.cfg'), 'utf8');
  const section = text.slice(text.search(/^backend switchboard$/m)).split('\n').slice(1);
  const lines = section.map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
  if (lines.filter((line) => line.startsWith('server ')).length !== 3) throw new Error('deploy/haproxy.cfg: expected three server lines in backend switchboard');
  return [...lines.filter((line) => !line.startsWith('server ')), ...ports.map((port, index) => `server r${index + 1} 127.0.0.1:${port}`)];
}

/** POST /mcp answers with status 200 a replica counted (its own /metrics; on PostgreSQL each sample has its `replica` label). */
export async function mcpAnswers(replica: ReplicaProcess, token: string): Promise<number> {
  const text = await (await fetch(`${replica.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const line = /^switchboard_http_requests_total\{method="POST",route="\/mcp",status="200"(?:,replica="[^"]*")?\} (\d+)/m.exec(text);
  return Number(line?.[1] ?? 0);
}

export interface ClusterTestBed {
  replicas: ReplicaProcess[];
  haproxy: RunningHaproxy;
  registry: ServerRegistry;
  adminToken: string;
  /** A token of a new user `name` (made in the shared database). */
  userToken(name: string): Promise<string>;
  /** Starts one more replica of the cluster on `port` (not added to `replicas`). */
  start(port: number): Promise<ReplicaProcess>;
  /** Resolves once HAProxy's checks see `count` servers UP. */
  waitUp(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the database, three replicas and HAProxy; resolves once HAProxy sees all three up. */
export async function startClusterTestBed(): Promise<ClusterTestBed> {
  const database: TestDatabase = await createTestDatabase('postgres');
  const dir = mkdtempSync(join(tmpdir(), 'sb-cluster-'));
  const config = join(dir, 'switchboard.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { sink: { command: process.execPath, args: [KITCHEN_SINK] } } }));
  const adminToken = newToken('admin');
  const secretKey = SecretBox.formatKey(SecretBox.generateKey());
  const started: ReplicaProcess[] = [];
  const start = async (port: number): Promise<ReplicaProcess> => {
    const replica = await startReplica({ config, db: database.db, port, cwd: dir, token: adminToken, secretKey });
    started.push(replica);
    return replica;
  };
  let registry: ServerRegistry | undefined;
  let haproxy: RunningHaproxy | undefined;
  const close = async (): Promise<void> => {
    await haproxy?.close();
    await Promise.all(started.map((replica) => replica.close()));
    await registry?.close();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const ports = [await freePort(), await freePort(), await freePort()];
    // The first one migrates the database and creates the administrator; the others join it.
    const replicas = [await start(ports[0] ?? 0)];
    replicas.push(...(await Promise.all(ports.slice(1).map((port) => start(port)))));
    const openRegistry = await ServerRegistry.open({ db: database.db, secretKey, watch: false });
    registry = openRegistry;
    const proxy = await startHaproxy([{ name: 'switchboard', lines: deployedBackend(ports) }]);
    haproxy = proxy;
    const waitUp = (count: number): Promise<void> =>
      waitFor(async () => (await proxy.servers()).filter((server) => server.status === 'UP').length === count, 15_000, `HAProxy to see ${count} replicas up`);
    await waitUp(3);
    const userToken = async (name: string): Promise<string> => (await openRegistry.tokens.create(await openRegistry.users.add(name))).token;
    return { replicas, haproxy: proxy, registry: openRegistry, adminToken, userToken, start, waitUp, close };
  } catch (error) {
    await close();
    throw error;
  }
}
