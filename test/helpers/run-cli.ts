/**
 * Runs the built `switchboard` bin as a user would (and other programs), with a bounded wait.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { ROOT } from './fixtures.js';

export const SWITCHBOARD_BIN = resolve(ROOT, 'bin/switchboard.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds until stdout ended (the result was printed). */
  outputMs: number;
  /** Milliseconds until the process exited. */
  ms: number;
}

/** Runs the built `switchboard` bin with `args`. */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number; stdin?: string } = {}): Promise<CliRun> {
  return runProcess(process.execPath, [SWITCHBOARD_BIN, ...args], {
    ...options,
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', MCP_LOG_LEVEL: undefined, SWITCHBOARD_CONFIG: undefined, ...options.env },
    label: `switchboard ${args.join(' ')}`,
  });
}

/**
 * Runs a program to its end and collects its output; kills it and rejects (with its output) when it
 * outlives `timeoutMs`. `env` is the whole environment (undefined values are left out).
 */
export async function runProcess(command: string, args: string[], options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number; stdin?: string; label?: string } = {}): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(command, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let outputMs = 0;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // `exit` can come before the pipes are read to their end (a loaded machine made a CLI's JSON arrive empty).
  const drained = Promise.all([
    new Promise<void>((resolveEnd) => child.stdout.once('close', () => resolveEnd())),
    new Promise<void>((resolveEnd) => child.stderr.once('close', () => resolveEnd())),
  ]);
  child.stdout.once('end', () => (outputMs = performance.now() - started));
  if (options.stdin !== undefined) child.stdin.end(options.stdin);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const code = await new Promise<number | null>((resolveExit, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.label ?? `${command} ${args.join(' ')}`} did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolveExit(exitCode);
    });
  });
  const ms = performance.now() - started;
  // A process that left a child holding its pipes is not waited for beyond a moment.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([drained, new Promise<void>((resolveLate) => (timer = setTimeout(resolveLate, 2_000)))]).finally(() => clearTimeout(timer));
  return { code, stdout, stderr, outputMs, ms };
}
