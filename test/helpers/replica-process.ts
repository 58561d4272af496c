/**
 * One replica of a gateway cluster as a real child process: the built `switchboard serve` on a
 * given port, a shared PostgreSQL `--db` URL, the cluster's `SWITCHBOARD_SECRET_KEY` and admin
 * token. `kill()` sends SIGKILL (a crash: nothing is cleaned up by the replica); `close()` stops it
 * with SIGTERM, then SIGKILL on its process group, and waits until the servers it started are gone.
 */
import { spawn } from 'node:child_process';
import { descendantsOf, isAlive, stopProcessGroup, waitFor } from './processes.js';
import { SWITCHBOARD_BIN } from './run-cli.js';

/** A running replica. */
export interface ReplicaProcess {
  url: string;
  port: number;
  pid: number;
  output(): string;
  /** SIGKILL, no shutdown; resolves once the process has exited. */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startReplica}. */
export interface ReplicaOptions {
  config: string;
  db: string;
  port: number;
  cwd: string;
  token: string;
  secretKey: string;
  timeoutMs?: number;
}

/** Starts a replica and resolves once its `/readyz` answers 200. */
export async function startReplica(options: ReplicaOptions): Promise<ReplicaProcess> {
  const child = spawn(process.execPath, [SWITCHBOARD_BIN, 'serve', '--config', options.config, '--db', options.db, '--port', String(options.port)], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: options.cwd, SWITCHBOARD_TOKEN: options.token, SWITCHBOARD_SECRET_KEY: options.secretKey, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const pid = child.pid;
  if (pid === undefined) throw new Error('switchboard serve did not start');
  const url = `http://127.0.0.1:${options.port}`;
  // The servers it started run in process groups of their own: known before a kill, waited for after.
  let children: number[] = [];
  const endChildren = async (): Promise<void> => {
    // After a SIGKILL their stdin closes and they exit; any that does not is killed.
    await waitFor(() => children.every((child) => !isAlive(child)), 5_000, 'the servers of a killed replica to exit').catch(() => {
      for (const child of children) if (isAlive(child)) process.kill(child, 'SIGKILL');
    });
  };
  const kill = async (): Promise<void> => {
    children = [...new Set([...children, ...descendantsOf(pid).map((info) => info.pid)])];
    if (!exited) process.kill(pid, 'SIGKILL');
    await waitFor(() => exited, 5_000, `replica ${pid} to die`);
    await endChildren();
  };
  const close = async (): Promise<void> => {
    children = [...new Set([...children, ...descendantsOf(pid).map((info) => info.pid)])];
    await stopProcessGroup(pid, () => exited, 'a replica');
    await endChildren();
  };
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error(`replica on port ${options.port} exited before it was ready:\n${output}`);
        return (await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200;
      },
      options.timeoutMs ?? 30_000,
      `the replica on port ${options.port} to be ready`,
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { url, port: options.port, pid, output: () => output, kill, close };
}
