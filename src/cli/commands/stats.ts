/**
 * @module cli/commands/stats
 * `switchboard stats`: per-server and per-tool calls, errors by code, timeouts, cancellations,
 * latency percentiles, in-flight calls, cache hits and misses, retries and restarts.
 * - With `--call TOOL`, it runs the tool `--repeat` times (`--concurrency` at once) against the
 *   config's servers and prints what it measured: a quick latency check of a server.
 * - Otherwise it reads the stats of a running gateway (`switchboard serve`) from its `/api/stats`.
 */

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isSwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ClientStats } from '../../metrics/stats-collector.js';
import { CliExit, ExitCode, usageError } from '../cli-error.js';
import { connectForCli } from '../connect-config.js';
import { formatStats } from '../format-stats.js';
import { writeJson, writeResult } from '../output.js';

/** The gateway's default address. */
export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:7410';

/** Options of {@link stats}. */
export interface StatsOptions {
  config?: string;
  server?: string[];
  json?: boolean;
  call?: string;
  args?: string;
  repeat?: number;
  concurrency?: number;
  url?: string;
  token?: string;
  logger: Logger;
}

/** Prints stats (exercised locally with `--call`, or read from a gateway). */
export async function stats(options: StatsOptions): Promise<void> {
  const result = options.call === undefined ? await fromGateway(options) : await exercise(options.call, options);
  if (options.json === true) writeJson(result);
  else writeResult(formatStats(result));
}

async function exercise(tool: string, options: StatsOptions): Promise<ClientStats> {
  const repeat = options.repeat ?? 20;
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(repeat) || repeat < 1) throw usageError(`--repeat must be a positive integer, got ${String(options.repeat)}`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw usageError(`--concurrency must be a positive integer, got ${String(options.concurrency)}`);
  let args: Record<string, unknown> = {};
  if (options.args !== undefined) {
    try {
      const parsed: unknown = JSON.parse(options.args);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      args = parsed as Record<string, unknown>;
    } catch {
      throw usageError(`--args must be a JSON object, e.g. --args '{"message":"hi"}'`);
    }
  }
  const client = await connectForCli(options);
  try {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < repeat) {
        next++;
        await client.callTool(tool, args).catch((error: unknown) => {
          // Counted in the stats; a wrong tool name should stop the run, though.
          if (isSwitchboardError(error) && (error.code === 'TOOL_NOT_FOUND' || error.code === 'INVALID_ARGUMENT')) throw error;
        });
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, repeat) }, worker));
    return client.stats();
  } finally {
    await client.close();
  }
}

async function fromGateway(options: StatsOptions): Promise<ClientStats> {
  const base = options.url ?? process.env.SWITCHBOARD_URL ?? DEFAULT_GATEWAY_URL;
  const token = options.token ?? process.env.SWITCHBOARD_TOKEN ?? (await readTokenFile());
  let response: Response;
  try {
    response = await fetch(new URL('/api/stats', base), { headers: token === undefined ? {} : { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(10_000) });
  } catch {
    throw new CliExit(ExitCode.Failed, `no gateway answers at ${base}; start one with \`switchboard serve\`, or measure a tool directly with \`switchboard stats --call TOOL\``);
  }
  if (response.status === 401 || response.status === 403) {
    throw new CliExit(ExitCode.Failed, `the gateway at ${base} refused the token (HTTP ${response.status}); pass --token or set SWITCHBOARD_TOKEN`);
  }
  if (!response.ok) throw new CliExit(ExitCode.Failed, `the gateway at ${base} answered HTTP ${response.status}`);
  return (await response.json()) as ClientStats;
}

async function readTokenFile(): Promise<string | undefined> {
  try {
    return (await readFile(resolve('.switchboard/token'), 'utf8')).trim();
  } catch {
    return undefined;
  }
}
