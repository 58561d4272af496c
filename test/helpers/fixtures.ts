/**
 * Paths of the fixture servers, server specs built through the real config loader, and real HTTP
 * servers started on loopback for a test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import type { ServerSpec } from '../../src/config/server-spec.js';
import { freePort } from './free-port.js';
import { waitFor } from './processes.js';

export { freePort };

export const ROOT = resolve(import.meta.dirname, '../..');
export const FIXTURES = resolve(ROOT, 'test/fixtures/servers');
export const KITCHEN_SINK = resolve(FIXTURES, 'kitchen-sink-server.mjs');
export const FAULT_SERVER = resolve(FIXTURES, 'fault-server.mjs');
export const PYTHON_SERVER = resolve(FIXTURES, 'python_server.py');
export const MINIMAL_SERVER = resolve(FIXTURES, 'minimal-server.sh');
export const ECHO_ARGS_SERVER = resolve(FIXTURES, 'echo-args-server.mjs');
export const LOOPBACK = resolve(ROOT, 'test/fixtures/loopback.cjs');

/** An installed npm bin (the reference servers). */
export function bin(name: string): string {
  return resolve(ROOT, 'node_modules/.bin', name);
}

/** A server spec from a config entry, through the real normalizer. */
export function specOf(name: string, entry: Record<string, unknown>): ServerSpec {
  const { config } = normalizeConfig({ mcpServers: { [name]: entry } }, { baseDir: ROOT });
  const spec = config.servers[0];
  if (spec === undefined) throw new Error('no spec');
  return spec;
}

/** A spec for the fault server in `mode`. */
export function faultSpec(name: string, mode: string, extra: Record<string, unknown> = {}): ServerSpec {
  return specOf(name, { command: process.execPath, args: [FAULT_SERVER, '--mode', mode], ...extra });
}

/** A real server process listening on loopback for the duration of a test. */
export interface HttpFixture {
  port: number;
  url(path?: string): string;
  process: ChildProcess;
  close(): Promise<void>;
}

/** Starts `command args` with PORT set, waits until the port accepts connections. */
export async function startHttpFixture(command: string, args: string[], options: { env?: Record<string, string>; port?: number } = {}): Promise<HttpFixture> {
  const port = options.port ?? (await freePort());
  const child = spawn(command, args, {
    env: { ...process.env, PORT: String(port), NODE_OPTIONS: `--require=${LOOPBACK}`, ...options.env },
    stdio: ['pipe', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const close = async (): Promise<void> => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    await waitFor(() => exited, 5_000, 'the HTTP fixture to exit').catch(() => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        // gone
      }
    });
  };
  try {
    await waitFor(() => {
      if (exited) throw new Error(`HTTP fixture exited early: ${stderr}`);
      return canConnect(port);
    }, 15_000, `${command} to listen on ${port}`);
  } catch (error) {
    await close();
    throw error;
  }
  return { port, url: (path = '/mcp') => `http://127.0.0.1:${port}${path}`, process: child, close };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolveConnect) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolveConnect(true);
    });
    socket.once('error', () => resolveConnect(false));
  });
}
