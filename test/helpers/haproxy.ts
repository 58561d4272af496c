/**
 * A real HAProxy (Debian's `haproxy`) in the foreground for a test: a config in a temporary folder,
 * a frontend on a free loopback port, the backends a test describes, and a stats socket there to read
 * what HAProxy's health checks concluded. `close()` ends the process and waits until it has exited.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './fixtures.js';
import { isAlive, waitFor } from './processes.js';
import { readUntilClose } from './read-until-close.js';

/** Where Debian installs HAProxy (`apt-get install haproxy`). */
export const HAPROXY_PATH = process.env.HAPROXY_PATH ?? '/usr/sbin/haproxy';

/** Why the HAProxy tests cannot run here, or undefined. */
export function haproxyMissing(): string | undefined {
  const probe = spawnSync(HAPROXY_PATH, ['-v'], { encoding: 'utf8', timeout: 5_000 });
  return probe.status === 0 ? undefined : `${HAPROXY_PATH} is missing or does not run (apt-get install -y haproxy)`;
}

/** One backend: its name and the lines of its section (its `server` lines included). */
export interface HaproxyBackend {
  name: string;
  lines: readonly string[];
}

/** One server's row of `show stat`, the fields a health-check test reads. */
export interface HaproxyServerState {
  backend: string;
  server: string;
  /** `UP`, `DOWN`, `UP 1/3` (going down), `DOWN 1/2` (going up), … */
  status: string;
  /** `L7OK`, `L7STS` (an unexpected status), `L4CON`, `INI` (no check yet), … */
  checkStatus: string;
  /** The HTTP status of the last L7 check, '' before one. */
  checkCode: string;
}

export interface RunningHaproxy {
  /** `http://127.0.0.1:PORT` of the frontend, which routes to the first backend. */
  url: string;
  pid: number;
  /** Everything HAProxy wrote to stdout and stderr so far. */
  output(): string;
  /** The servers' rows of `show stat`. */
  servers(): Promise<HaproxyServerState[]>;
  /** Ends HAProxy (SIGTERM, then SIGKILL) and removes its folder; resolves once it has exited. */
  close(): Promise<void>;
}

/** Sends one command to the stats socket; resolves with HAProxy's whole answer (it closes after it). */
function statsCommand(socketPath: string, command: string): Promise<string> {
  const socket = connect(socketPath, () => socket.write(`${command}\n`));
  return readUntilClose(socket, 5_000, () => `the stats socket did not answer "${command}" within 5 s`);
}

/** The server rows of a `show stat` CSV, by column name (the header starts with `# `). */
export function parseShowStat(csv: string): HaproxyServerState[] {
  const [header, ...rows] = csv.split('\n').filter((line) => line.trim() !== '');
  if (header === undefined || !header.startsWith('# ')) throw new Error(`not a show stat answer: ${JSON.stringify(csv.slice(0, 200))}`);
  const columns = header.slice(2).split(',');
  const column = (row: string[], name: string): string => row[columns.indexOf(name)] ?? '';
  return rows
    .map((line) => line.split(','))
    .filter((row) => !['FRONTEND', 'BACKEND'].includes(column(row, 'svname')))
    .map((row) => ({
      backend: column(row, 'pxname'),
      server: column(row, 'svname'),
      status: column(row, 'status'),
      checkStatus: column(row, 'check_status'),
      checkCode: column(row, 'check_code'),
    }));
}

/** Writes the config and starts `haproxy -f CFG -db`; resolves once the stats socket answers. */
export async function startHaproxy(backends: readonly HaproxyBackend[]): Promise<RunningHaproxy> {
  const first = backends[0];
  if (first === undefined) throw new Error('startHaproxy needs at least one backend');
  const dir = mkdtempSync(join(tmpdir(), 'sb-haproxy-'));
  const socketPath = join(dir, 'stats.sock');
  const port = await freePort();
  const config = [
    'global',
    `  stats socket ${socketPath} mode 600 level admin`,
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  timeout check 2s',
    '',
    'frontend probe_front',
    `  bind 127.0.0.1:${port}`,
    `  default_backend ${first.name}`,
    ...backends.flatMap((backend) => ['', `backend ${backend.name}`, ...backend.lines.map((line) => `  ${line}`)]),
    '',
  ].join('\n');
  const configPath = join(dir, 'haproxy.cfg');
  writeFileSync(configPath, config);

  const child = spawn(HAPROXY_PATH, ['-f', configPath, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exited = false;
  child.once('exit', () => (exited = true));
  const pid = child.pid;
  if (pid === undefined) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${HAPROXY_PATH} did not start`);
  }

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      try {
        if (!exited) child.kill('SIGTERM');
        await waitFor(() => exited, 5_000, `haproxy (${pid}) to exit on SIGTERM`).catch(() => {
          if (!exited) child.kill('SIGKILL');
        });
        await waitFor(() => exited && !isAlive(pid), 5_000, `haproxy (${pid}) to exit`);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    })();
    return closing;
  };

  const servers = async (): Promise<HaproxyServerState[]> => parseShowStat(await statsCommand(socketPath, 'show stat'));
  try {
    await waitFor(
      async () => {
        if (exited) throw new Error(`haproxy exited before its stats socket answered:\n${output}\nconfig:\n${config}`);
        return (await servers().catch(() => undefined)) !== undefined;
      },
      10_000,
      'the haproxy stats socket to answer',
    );
  } catch (error) {
    await close();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, pid, output: () => output, servers, close };
}
