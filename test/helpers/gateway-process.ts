/**
 * `switchboard serve` as a real child process for end-to-end tests: the built CLI on a free port,
 * a temporary registry, the admin token chosen through SWITCHBOARD_TOKEN. `close()` stops it with
 * SIGTERM (graceful shutdown), then SIGKILL on its process group, and waits until no process of the
 * group is left.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { descendantsOf, isAlive, stopProcessGroup, waitFor } from './processes.js';
import { SWITCHBOARD_BIN } from './run-cli.js';

/** A running gateway. */
export interface GatewayProcess {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** The admin token (SWITCHBOARD_TOKEN). */
  token: string;
  /** Everything the process wrote to stderr and stdout so far. */
  output(): string;
  close(): Promise<void>;
}

/** A token of the shape the gateway accepts for SWITCHBOARD_TOKEN (32+ characters). */
export function newToken(label = 'test'): string {
  return `sb_${label}_${randomBytes(24).toString('hex')}`;
}

/** Starts `switchboard serve --config CONFIG --db DB --port 0` in `cwd` and waits until it listens. */
export async function startGatewayProcess(options: { config: string; db: string; cwd: string; token?: string; timeoutMs?: number }): Promise<GatewayProcess> {
  const token = options.token ?? newToken('admin');
  const child = spawn(process.execPath, [SWITCHBOARD_BIN, 'serve', '--config', options.config, '--db', options.db, '--port', '0'], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: options.cwd, SWITCHBOARD_TOKEN: token, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: close() can reach the servers it started, even if it dies first.
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const pgid = child.pid;
  if (pgid === undefined) throw new Error('switchboard serve did not start');

  const close = async (): Promise<void> => {
    // The MCP servers it started run in process groups of their own: remember them to check they end.
    const children = descendantsOf(pgid).map((info) => info.pid);
    await stopProcessGroup(pgid, () => exited, 'switchboard serve');
    await waitFor(() => children.every((pid) => !isAlive(pid)), 5_000, `the servers started by switchboard serve (${children.join(', ')}) to end`);
  };

  try {
    let url: string | undefined;
    // A bound, not a wait: on a loaded 2-core CI machine, with Chromium starting beside it, serve has taken over 20 s.
    const startMs = options.timeoutMs ?? 45_000;
    await waitFor(
      () => {
        if (exited) throw new Error(`switchboard serve exited before listening:\n${output}`);
        url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
        return url !== undefined;
      },
      startMs,
      'switchboard serve to print its URL',
    ).catch((error: unknown) => {
      if (exited) throw error;
      throw new Error(`${error instanceof Error ? error.message : String(error)}; it printed:\n${output.slice(-2000)}`);
    });
    if (url === undefined) throw new Error('no URL');
    const base = url;
    await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.status === 200, 10_000, 'the gateway to be ready');
    return { url: base, token, output: () => output, close };
  } catch (error) {
    await close();
    throw error;
  }
}
