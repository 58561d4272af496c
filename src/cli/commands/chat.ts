/**
 * @module cli/commands/chat
 * `switchboard chat`: an agent in the terminal that uses the tools of every configured server,
 * against any OpenAI-compatible endpoint (`OPENAI_BASE_URL`, `OPENAI_API_KEY`, `--model`). The
 * answer streams to stdout; each tool call prints a start and an end line on stderr (tool, server,
 * duration, ok). `/tools`, `/servers`, `/exit` inside; `--once "question"` runs one turn and exits.
 * The frameworks (`@langchain/core`, `langchain`, `@langchain/openai`) are optional peer
 * dependencies, loaded only here.
 */

import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { MultiServerClient } from '../../client/multi-server-client.js';
import { ConfigError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { CliExit, ExitCode, usageError } from '../cli-error.js';
import { catalogCacheDir, loadConfigForCli } from '../connect-config.js';
import { style, writeDiagnostic, writeResult, writeText } from '../output.js';
import type { ChatEvent, ChatSession } from '../chat/chat-session.js';
import { TOOL_SEARCH_MODES, type ToolSearchMode } from '../../client/search/tool-search-mode.js';
import { describeModelError, resolveModelEndpoint, type ModelEndpoint } from '../chat/model-endpoint.js';

/** Options of {@link chat}. */
export interface ChatOptions {
  config?: string;
  server?: string[];
  model?: string;
  /** Ask this one question, print the answer, exit. */
  once?: string;
  system?: string;
  /** `--tool-search off|on|auto`. @default 'auto' */
  toolSearch?: string;
  logger: Logger;
  /** Ends the chat (Ctrl-C twice, or once when not on a terminal). */
  signal?: AbortSignal;
  /** @default process.stdin */
  input?: Readable & { isTTY?: boolean };
  /** @default process.env */
  env?: NodeJS.ProcessEnv;
}

const PEERS = ['@langchain/core', 'langchain', '@langchain/openai'];
const TOOL_OUTPUT_PREVIEW = 160;

/** Runs the chat until `/exit`, end of input, or the end of the `--once` turn. */
export async function chat(options: ChatOptions): Promise<void> {
  if (options.once !== undefined && options.once.trim() === '') throw usageError('--once needs a question, e.g. --once "what files are in the sandbox?"');
  const toolSearch = options.toolSearch ?? 'auto';
  if (!isToolSearchMode(toolSearch)) throw usageError(`--tool-search must be one of ${TOOL_SEARCH_MODES.join(', ')}, got "${toolSearch}"`);
  const endpoint = await resolveModelEndpoint(options.model === undefined ? {} : { model: options.model }, options.env ?? process.env);
  const { ChatSession } = await loadSession();
  const { config, source } = await loadConfigForCli(options);
  if (config.servers.every((spec) => !spec.enabled)) throw new ConfigError([{ path: 'mcpServers', message: 'every server is disabled' }]);
  const { MultiServerClient } = await import('../../client/multi-server-client.js');
  // Unlike the one-shot commands, a chat lasts: servers that fail or die are retried in the background.
  // The catalog cache keeps the names the model sees the same whichever servers are up.
  const client = await MultiServerClient.connect(config, { logger: options.logger, catalogCache: catalogCacheDir(source) });
  const session = new ChatSession({ client, endpoint, toolSearch, ...(options.system === undefined ? {} : { systemPrompt: options.system }) });
  try {
    announce(client, session, endpoint, options.once === undefined);
    if (options.once !== undefined) {
      const ok = await runTurn(session, options.once, endpoint, options.signal, true);
      if (!ok) throw new CliExit(options.signal?.aborted === true ? ExitCode.Interrupted : ExitCode.Failed);
      return;
    }
    const stopFollowing = session.toolset.onChange((change) => {
      const parts = [...change.added.map((name) => `+${name}`), ...change.removed.map((name) => `-${name}`)];
      if (parts.length > 0) writeDiagnostic(style.dim(`tools changed (${change.reason}${change.server === undefined ? '' : `, ${change.server}`}): ${parts.join(' ')}`));
    });
    try {
      await interact(session, client, endpoint, options);
    } finally {
      stopFollowing();
    }
  } finally {
    session.close();
    await client.close();
  }
}

async function loadSession(): Promise<typeof import('../chat/chat-session.js')> {
  try {
    return await import('../chat/chat-session.js');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
      throw new CliExit(ExitCode.Failed, `switchboard chat needs LangChain.js: npm install ${PEERS.join(' ')} (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
    throw error;
  }
}

function isToolSearchMode(value: string): value is ToolSearchMode {
  return (TOOL_SEARCH_MODES as readonly string[]).includes(value);
}

function announce(client: MultiServerClient, session: ChatSession, endpoint: ModelEndpoint, interactive: boolean): void {
  const servers = client.status().filter((status) => status.enabled);
  const ready = servers.filter((status) => status.state === 'ready');
  for (const status of servers) {
    if (status.state !== 'ready') writeDiagnostic(style.yellow(`server ${status.name} is ${status.state}${status.error === undefined ? '' : `: ${status.error.message}`} (retrying in the background)`));
  }
  const search = session.toolset.searching ? ' (offered through search_tools and call_tool)' : '';
  writeDiagnostic(style.dim(`${ready.length}/${servers.length} servers, ${client.listTools().length} tools${search}; model ${endpoint.model} at ${endpoint.baseUrl}`));
  if (interactive) writeDiagnostic(style.dim('type a question; /tools, /servers, /exit'));
}

/**
 * Runs one turn, rendering its events. Returns whether it completed; a failure of the model endpoint
 * is printed as one line (in `--once` mode it then ends the command with exit 1).
 */
async function runTurn(session: ChatSession, question: string, endpoint: ModelEndpoint, signal: AbortSignal | undefined, once: boolean): Promise<boolean> {
  let atLineStart = true;
  const write = (text: string): void => {
    writeText(text);
    atLineStart = text.endsWith('\n');
  };
  try {
    for await (const event of session.turn(question, signal)) {
      if (event.type === 'token') write(event.text);
      else if (event.type === 'tool-start' || event.type === 'tool-end') {
        if (!atLineStart) write('\n');
        writeDiagnostic(formatToolEvent(event));
      }
    }
    if (!atLineStart) write('\n');
    return true;
  } catch (error) {
    if (!atLineStart) write('\n');
    if (signal?.aborted === true) {
      writeDiagnostic(style.yellow('interrupted'));
      return false;
    }
    const message = describeModelError(error, endpoint.baseUrl);
    if (message === undefined) throw error;
    if (once) throw new CliExit(ExitCode.Failed, message);
    writeDiagnostic(style.red(message));
    return false;
  }
}

/** A tool line: `→ echo [sink] {"message":"hi"}` and `← echo [sink] ok 12 ms: hi`. */
export function formatToolEvent(event: Extract<ChatEvent, { type: 'tool-start' | 'tool-end' }>): string {
  const where = event.server === undefined ? '' : ` [${event.server}]`;
  if (event.type === 'tool-start') return style.dim(`→ ${event.tool}${where} ${preview(JSON.stringify(event.input ?? {}))}`);
  const outcome = event.ok ? style.green('ok') : style.red('error');
  return `${style.dim('←')} ${event.tool}${where} ${outcome} ${Math.round(event.durationMs)} ms${event.output === '' ? '' : style.dim(`: ${preview(event.output)}`)}`;
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= TOOL_OUTPUT_PREVIEW ? flat : `${flat.slice(0, TOOL_OUTPUT_PREVIEW - 1)}…`;
}

async function interact(session: ChatSession, client: MultiServerClient, endpoint: ModelEndpoint, options: ChatOptions): Promise<void> {
  const input = options.input ?? process.stdin;
  const terminal = input.isTTY === true;
  const reader = createInterface({ input, output: process.stderr, terminal, prompt: style.bold('> ') });
  let turn: AbortController | undefined;
  // On a terminal Ctrl-C reaches readline: it cancels the running turn, or ends the chat at the prompt.
  reader.on('SIGINT', () => {
    if (turn !== undefined) turn.abort(new Error('interrupted'));
    else reader.close();
  });
  const onEnd = (): void => {
    turn?.abort(new Error('interrupted'));
    reader.close();
  };
  options.signal?.addEventListener('abort', onEnd, { once: true });
  // Lines are queued from 'line' events rather than read through the async iterator: the iterator
  // pauses the input between reads, and a paused raw-mode terminal would not deliver Ctrl-C mid-turn.
  const queue: string[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  reader.on('line', (line) => {
    queue.push(line);
    wake?.();
  });
  reader.on('close', () => {
    closed = true;
    wake?.();
  });
  const nextLine = async (): Promise<string | undefined> => {
    while (queue.length === 0 && !closed) await new Promise<void>((resolveWake) => (wake = resolveWake));
    wake = undefined;
    return queue.shift();
  };
  try {
    for (;;) {
      if (terminal && queue.length === 0) reader.prompt();
      const next = await nextLine();
      if (next === undefined) break;
      const line = next.trim();
      if (line === '') continue;
      if (line.startsWith('/')) {
        if (!runCommand(line, client)) break;
        continue;
      }
      turn = new AbortController();
      const signals = options.signal === undefined ? turn.signal : AbortSignal.any([turn.signal, options.signal]);
      try {
        await runTurn(session, line, endpoint, signals, false);
      } finally {
        turn = undefined;
      }
      if (options.signal?.aborted === true) break;
    }
  } finally {
    options.signal?.removeEventListener('abort', onEnd);
    reader.close();
  }
}

/** Runs a slash command; returns false for `/exit`. */
function runCommand(line: string, client: MultiServerClient): boolean {
  const command = line.split(/\s+/)[0];
  switch (command) {
    case '/exit':
    case '/quit':
      return false;
    case '/tools': {
      const tools = client.listTools();
      if (tools.length === 0) writeResult(style.dim('no tools (is every server down? try /servers)', true));
      for (const tool of tools) {
        const description = (tool.description ?? '').replace(/^\[[^\]]*\]\s*/, '').split('\n')[0] ?? '';
        writeResult(`${tool.name} ${style.dim(`[${tool.server}]${description === '' ? '' : ` ${description}`}`, true)}`);
      }
      return true;
    }
    case '/servers':
      for (const status of client.status()) {
        const state = status.state === 'ready' ? style.green(status.state, true) : status.state === 'closed' ? style.dim(status.state, true) : style.yellow(status.state, true);
        writeResult(`${status.name} ${state} ${style.dim(`${status.toolCount} tools${status.error === undefined ? '' : ` — ${status.error.message}`}`, true)}`);
      }
      return true;
    default:
      writeDiagnostic(`unknown command ${command}; use /tools, /servers or /exit`);
      return true;
  }
}
