/**
 * @module connection/stdio-process-transport
 * An MCP `Transport` over a child process's stdin/stdout, built for failure:
 * - the child runs in its own process group; `close()` ends the whole group (stdin EOF → SIGTERM →
 *   SIGKILL, each step bounded), so no grandchild (e.g. the server `npx` started) survives;
 * - stderr is kept in a ring buffer for start-up errors and forwarded line by line to the logger;
 * - non-JSON lines on stdout are tolerated and logged at debug;
 * - lines are split without re-concatenating the pending buffer per chunk, and parsed once.
 * It exposes `stderr` and `pid`, which is how the SDK recognises a stdio-shaped transport.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import { CoalescedWriter } from './coalesced-writer.js';
import { JsonLineDecoder } from './json-line-decoder.js';
import { isProcessGroupAlive, signalProcessGroup, trackProcessGroup, untrackProcessGroup } from './process-group.js';
import { StderrRingBuffer } from './stderr-ring-buffer.js';

/** Wait after closing stdin before SIGTERM. @default 1000 */
export const DEFAULT_STDIN_CLOSE_GRACE_MS = 1_000;
/** Wait after SIGTERM before SIGKILL. @default 1000 */
export const DEFAULT_SIGTERM_GRACE_MS = 1_000;
/** After the child exits, how long buffered stdout may still arrive before the transport reports close. */
const EXIT_DRAIN_MS = 100;
const GROUP_POLL_MS = 20;

/** Host variables a server always receives (as the SDK's `getDefaultEnvironment`, plus locale, TLS and proxy). */
export const DEFAULT_INHERITED_ENV: readonly string[] =
  process.platform === 'win32'
    ? ['APPDATA', 'HOMEDRIVE', 'HOMEPATH', 'LOCALAPPDATA', 'PATH', 'PATHEXT', 'PROCESSOR_ARCHITECTURE', 'SYSTEMDRIVE', 'SYSTEMROOT', 'TEMP', 'TMP', 'USERNAME', 'USERPROFILE', 'PROGRAMFILES', 'COMSPEC']
    : ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ', 'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy'];

/** Options of {@link StdioProcessTransport}. */
export interface StdioProcessTransportOptions {
  command: string;
  args: readonly string[];
  /** Set on top of the inherited variables. */
  env?: Readonly<Record<string, string>>;
  /** Extra host variables to pass through. */
  inheritEnv?: readonly string[];
  cwd?: string;
  /** Used in log lines and errors. */
  serverName: string;
  logger?: Logger;
  /** Called for every stderr line (after it is buffered). */
  onStderrLine?: (line: string) => void;
  /** @default DEFAULT_STDIN_CLOSE_GRACE_MS */
  stdinCloseGraceMs?: number;
  /** @default DEFAULT_SIGTERM_GRACE_MS */
  sigtermGraceMs?: number;
}

/** How the child ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** MCP over a child process's stdio, in its own process group. */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  /** The last stderr lines. (Its presence also marks this transport as stdio for the SDK.) */
  readonly stderr = new StderrRingBuffer();
  readonly #options: StdioProcessTransportOptions;
  readonly #logger: Logger;
  readonly #decoder = new JsonLineDecoder();
  #child: ChildProcess | undefined;
  #exit: ProcessExit | undefined;
  #closeReported = false;
  #closing: Promise<void> | undefined;
  #exited: Promise<void> | undefined;
  #drained: Promise<void> | undefined;
  #stdin: CoalescedWriter | undefined;

  constructor(options: StdioProcessTransportOptions) {
    this.#options = options;
    this.#logger = options.logger ?? noopLogger;
  }

  /** The child's PID once started (also its process group id). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the child ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** Resolves with how the child ended once it has, or undefined after `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<ProcessExit | undefined> {
    if (this.#exit !== undefined || this.#exited === undefined) return this.#exit;
    await withTimeout(this.#exited, timeoutMs);
    return this.#exit;
  }

  /** Spawns the child. Rejects with `SERVER_START_FAILED` when it cannot be started (e.g. ENOENT). */
  start(): Promise<void> {
    if (this.#child !== undefined) return Promise.reject(new Error('StdioProcessTransport already started'));
    const { command, args, cwd, serverName } = this.#options;
    const env = buildChildEnv(this.#options.env ?? {}, this.#options.inheritEnv ?? []);
    this.#logger.debug('spawning server', { server: serverName, command, args, cwd, envKeys: Object.keys(this.#options.env ?? {}) });
    return new Promise<void>((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(command, [...args], {
          cwd,
          env,
          stdio: ['pipe', 'pipe', 'pipe'],
          // A new process group (and session) on POSIX, so the group can be signalled as a whole.
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
      } catch (error) {
        reject(startError(serverName, command, error));
        return;
      }
      this.#child = child;
      if (child.stdin !== null) this.#stdin = new CoalescedWriter(child.stdin);
      let settled = false;
      this.#exited = new Promise<void>((resolveExit) => {
        child.once('exit', (code, signal) => {
          this.#exit = { code, signal };
          resolveExit();
        });
        child.once('error', () => resolveExit());
      });
      child.once('error', (error) => {
        if (!settled) {
          settled = true;
          reject(startError(serverName, command, error));
          return;
        }
        this.onerror?.(error);
      });
      child.once('spawn', () => {
        settled = true;
        if (child.pid !== undefined) trackProcessGroup(child.pid);
        resolve();
      });
      child.stdout?.on('data', (chunk: Buffer) => this.#onStdout(chunk));
      child.stdout?.once('end', () => this.#reportClose());
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => this.stderr.push(chunk, (line) => this.#onStderrLine(line)));
      child.stdin?.on('error', (error) => this.#logger.debug('server stdin error', { server: serverName, error: error.message }));
      child.once('exit', (code, signal) => {
        this.stderr.flush((line) => this.#onStderrLine(line));
        this.#logger.debug('server process exited', { server: serverName, code, signal });
        // Give stdout a moment to deliver what the child wrote before exiting.
        setTimeout(() => this.#reportClose(), EXIT_DRAIN_MS).unref();
      });
    });
  }

  /** Writes one message as a line. Resolves once written (after `drain` when the pipe is full). */
  send(message: JSONRPCMessage): Promise<void> {
    let written: boolean;
    try {
      written = this.#write(message);
    } catch (error) {
      return Promise.reject(error);
    }
    if (written) return Promise.resolve();
    // One wait shared by every message queued behind a full pipe (not a listener per message).
    this.#drained ??= new Promise<void>((resolve) =>
      this.#child?.stdin?.once('drain', () => {
        this.#drained = undefined;
        resolve();
      }),
    );
    return this.#drained;
  }

  /**
   * Writes one message as a line now, without waiting for a full pipe to drain (Node buffers it):
   * the per-call path's send, which needs no promise. `lone`: nothing else of the caller's is in
   * flight (see coalesced-writer). Throws `SERVER_DISCONNECTED` when the server is not running.
   */
  sendNow(message: JSONRPCMessage, lone = false): void {
    this.#write(message, lone);
  }

  #write(message: JSONRPCMessage, lone = false): boolean {
    const stdin = this.#child?.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed || !stdin.writable || this.#exit !== undefined) {
      throw new SwitchboardError(ErrorCode.ServerDisconnected, `server "${this.#options.serverName}" is not running`, {
        server: this.#options.serverName,
        reason: 'is not running',
      });
    }
    const text = `${JSON.stringify(message)}\n`;
    return this.#stdin === undefined ? stdin.write(text) : this.#stdin.write(text, lone);
  }

  /**
   * Ends the process group: stdin EOF, then SIGTERM, then SIGKILL, each bounded. Idempotent; safe
   * when start failed midway.
   */
  close(): Promise<void> {
    this.#closing ??= this.#terminate().finally(() => this.#reportClose());
    return this.#closing;
  }

  async #terminate(): Promise<void> {
    const child = this.#child;
    const pgid = child?.pid;
    if (child === undefined || pgid === undefined) return;
    const stdinGraceMs = this.#options.stdinCloseGraceMs ?? DEFAULT_STDIN_CLOSE_GRACE_MS;
    const sigtermGraceMs = this.#options.sigtermGraceMs ?? DEFAULT_SIGTERM_GRACE_MS;
    try {
      if (this.#exit === undefined) {
        this.#stdin?.flush();
        child.stdin?.end();
        await withTimeout(this.#exited ?? Promise.resolve(), stdinGraceMs);
      }
      if (process.platform === 'win32') {
        if (this.#exit === undefined) child.kill();
        return;
      }
      // The direct child may be gone while grandchildren still run in its group.
      if (this.#exit === undefined || isProcessGroupAlive(pgid)) {
        signalProcessGroup(pgid, 'SIGTERM');
        // As systemd does: a stopped process (e.g. frozen by SIGSTOP) acts on SIGTERM only once continued.
        signalProcessGroup(pgid, 'SIGCONT');
        if (!(await waitForGroupExit(pgid, sigtermGraceMs))) {
          this.#logger.debug('server ignored SIGTERM, killing', { server: this.#options.serverName });
          signalProcessGroup(pgid, 'SIGKILL');
          await waitForGroupExit(pgid, sigtermGraceMs);
        }
      }
      await withTimeout(this.#exited ?? Promise.resolve(), sigtermGraceMs);
    } finally {
      untrackProcessGroup(pgid);
      this.#stdin?.flush();
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    }
  }

  #onStdout(chunk: Buffer): void {
    try {
      this.#decoder.push(chunk, (line) => this.#onLine(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #onLine(line: string): void {
    // Almost every line starts with '{'; only others need the scan past leading blanks.
    const start = line.charCodeAt(0) === 0x7b ? 0 : firstNonSpace(line);
    if (start === -1) return;
    const first = line.charCodeAt(start);
    // '{' or '[' (a 2025-03-26 batch); anything else is a stray print from the server.
    if (first !== 0x7b && first !== 0x5b) {
      this.#logger.debug('ignored a non-JSON line on stdout', { server: this.#options.serverName, line: line.slice(0, 200) });
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      this.#logger.debug('ignored an unparsable line on stdout', { server: this.#options.serverName, line: line.slice(0, 200) });
      return;
    }
    if (Array.isArray(parsed)) {
      for (const item of parsed) this.#deliver(item);
    } else {
      this.#deliver(parsed);
    }
  }

  #deliver(value: unknown): void {
    if (typeof value !== 'object' || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      this.#logger.debug('ignored a JSON line that is not JSON-RPC 2.0', { server: this.#options.serverName });
      return;
    }
    this.onmessage?.(value as JSONRPCMessage);
  }

  #onStderrLine(line: string): void {
    this.#logger.debug('server stderr', { server: this.#options.serverName, line });
    this.#options.onStderrLine?.(line);
  }

  #reportClose(): void {
    if (this.#closeReported) return;
    this.#closeReported = true;
    this.onclose?.();
  }
}

/** The child's environment: safe host variables, the ones asked for, then the configured ones. */
export function buildChildEnv(env: Readonly<Record<string, string>>, inheritEnv: readonly string[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of [...DEFAULT_INHERITED_ENV, ...inheritEnv]) {
    const value = process.env[key];
    // Skip exported shell functions, as the SDK does: they are a known injection vector.
    if (value !== undefined && !value.startsWith('()')) result[key] = value;
  }
  return { ...result, ...env };
}

function startError(serverName: string, command: string, error: unknown): SwitchboardError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') {
    return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${serverName}": command not found: ${command}`, {
      server: serverName,
      operation: 'start',
      reason: `command not found: ${command}`,
      cause: error,
      hint: `install ${command} or fix \`command\`/\`path\`; it must be on PATH or an absolute path`,
      details: { reason: 'command-not-found', command },
    });
  }
  if (code === 'EACCES') {
    return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${serverName}": ${command} is not executable`, {
      server: serverName,
      operation: 'start',
      reason: `${command} is not executable`,
      cause: error,
      hint: `make it executable (chmod +x ${command}) or start it through its interpreter`,
      details: { reason: 'not-executable', command },
    });
  }
  const reason = `cannot start ${command} (${code ?? String(error)})`;
  return new SwitchboardError(ErrorCode.ServerStartFailed, `server "${serverName}": ${reason}`, {
    server: serverName,
    operation: 'start',
    reason,
    cause: error,
    details: { reason: 'spawn-failed', command },
  });
}

function firstNonSpace(line: string): number {
  for (let index = 0; index < line.length; index++) {
    const code = line.charCodeAt(index);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0d) return index;
  }
  return -1;
}

async function waitForGroupExit(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessGroupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, GROUP_POLL_MS));
  }
  return true;
}

async function withTimeout(promise: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  } finally {
    clearTimeout(timer);
  }
}
