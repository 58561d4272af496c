/**
 * @module cli/commands/call
 * `switchboard call TOOL --args JSON`: calls one tool and prints its result. Exit 0 on success, 1 when
 * the tool reports an error or the call fails, 2 on usage or config errors, 130 when interrupted.
 */

import { readFile } from 'node:fs/promises';
import { isSwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ContentItem, ToolResult } from '../../result/tool-result.js';
import { CliExit, ExitCode, usageError } from '../cli-error.js';
import { connectForCli } from '../connect-config.js';
import { withTimeoutFlagHint } from '../timeout-flag-hint.js';
import { startForCall } from '../start-for-call.js';
import { style, writeDiagnostic, writeJson, writeResult } from '../output.js';

/** Options of {@link call}. */
export interface CallCommandOptions {
  tool: string;
  config?: string;
  server?: string[];
  /** A JSON object, or `@file.json`. */
  args?: string;
  /** Seconds, overriding the server's `callTimeout`. */
  timeout?: number;
  json?: boolean;
  logger: Logger;
  /** Aborts the call (Ctrl-C). */
  signal?: AbortSignal;
}

/** Calls the tool and prints the normalized result. */
export async function call(options: CallCommandOptions): Promise<void> {
  const args = await parseArgs(options.args);
  if (options.timeout !== undefined && (!Number.isFinite(options.timeout) || options.timeout <= 0)) {
    throw usageError(`--timeout must be a positive number of seconds, got ${String(options.timeout)}`);
  }
  // Only the server that owns the tool starts, when the catalog cache knows it.
  const client = await connectForCli(options, { start: false });
  try {
    const server = options.server?.length === 1 ? options.server[0] : undefined;
    await startForCall(client, options.tool, server);
    let result: ToolResult;
    try {
      result = await client.callTool(options.tool, args, {
        ...(server === undefined ? {} : { server }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
        ...(options.timeout === undefined ? {} : { timeoutMs: options.timeout * 1000 }),
        onProgress: (progress) =>
          options.logger.info(`progress ${progress.progress}${progress.total === undefined ? '' : `/${progress.total}`}${progress.message === undefined ? '' : ` ${progress.message}`}`),
      });
    } catch (caught) {
      if (options.signal?.aborted === true) throw new CliExit(ExitCode.Interrupted, 'interrupted; the call was cancelled');
      const error = withTimeoutFlagHint(caught, options.timeout);
      if (isSwitchboardError(error) && options.json === true) {
        writeJson({ error: error.toJSON() });
        throw new CliExit(ExitCode.Failed);
      }
      throw error;
    }
    if (options.json === true) writeJson(result);
    else writeResult(formatResult(result));
    if (result.isError) {
      if (options.json !== true) writeDiagnostic(style.red(`the tool "${options.tool}" reported an error`));
      throw new CliExit(ExitCode.Failed);
    }
  } finally {
    await client.close();
  }
}

async function parseArgs(raw: string | undefined): Promise<Record<string, unknown>> {
  if (raw === undefined || raw.trim() === '') return {};
  let text = raw;
  if (raw.startsWith('@')) {
    try {
      text = await readFile(raw.slice(1), 'utf8');
    } catch (error) {
      throw usageError(`--args ${raw}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw usageError(`--args must be a JSON object, e.g. --args '{"message":"hi"}'; what was given is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw usageError(`--args must be a JSON object (got ${Array.isArray(parsed) ? 'an array' : typeof parsed})`);
  }
  return parsed as Record<string, unknown>;
}

/** A human rendering of a result: text as is, binary items summarized. */
export function formatResult(result: ToolResult): string {
  const parts = result.content.map(formatItem);
  if (result.structuredContent !== undefined) parts.push(`${style.dim('structuredContent:', true)}\n${JSON.stringify(result.structuredContent, null, 2)}`);
  return parts.join('\n');
}

function formatItem(item: ContentItem): string {
  switch (item.type) {
    case 'text':
      return item.text;
    case 'image':
    case 'audio':
      return style.dim(`[${item.type} ${item.mimeType}, ${formatBytes(base64Bytes(item.data))}]`, true);
    case 'resource':
      return `${style.dim(`[resource ${item.resource.uri}]`, true)}${typeof item.resource.text === 'string' ? `\n${item.resource.text}` : ''}`;
    case 'resource_link':
      return style.dim(`[link ${item.uri}${item.name === undefined ? '' : ` (${item.name})`}]`, true);
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
