/**
 * @module diagnose/diagnose-server
 * `switchboard doctor`: walks the handshake of one server step by step — spawn (or connect),
 * initialize, initialized, list-tools, ping — times each step, and for each failure says what
 * happened and what to do.
 */

import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type Transport } from '@modelcontextprotocol/client';
import type { HttpServerSpec, ServerSpec, StdioServerSpec } from '../config/server-spec.js';
import { unresolvedServerError } from '../config/unresolved-server-spec.js';
import { createHttpTransport, createStdioTransport } from '../connection/create-transport.js';
import { createMessageTrace } from '../connection/message-trace.js';
import { MAX_LIST_PAGES } from '../connection/server-connection.js';
import type { StdioProcessTransport } from '../connection/stdio-process-transport.js';
import { noopLogger, type Logger } from '../logger.js';
import { toSwitchboardError } from '../to-switchboard-error.js';
import { VERSION } from '../version.js';
import { ChannelClosedError, NoAnswerError, RawChannel, RpcError } from './raw-channel.js';

/** The steps, in order (`spawn` for stdio servers, `connect` for URLs). */
export type DoctorStepName = 'spawn' | 'connect' | 'initialize' | 'initialized' | 'list-tools' | 'ping';

/** One step's outcome. */
export interface DoctorStep {
  step: DoctorStepName;
  ok: boolean;
  ms: number;
  detail?: string;
  hint?: string;
}

/** A server's diagnosis. */
export interface ServerDiagnosis {
  name: string;
  ok: boolean;
  steps: DoctorStep[];
}

/** A step slower than this gets a hint. @default 2000 */
export const SLOW_STEP_MS = 2_000;
/** How long a just-spawned process is watched for an immediate exit. */
const SPAWN_WATCH_MS = 300;

/** Diagnoses one server. Never throws; everything it learns is in the steps. */
export async function diagnoseServer(spec: ServerSpec, options: { logger?: Logger } = {}): Promise<ServerDiagnosis> {
  const logger = options.logger ?? noopLogger;
  const steps: DoctorStep[] = [];
  const diagnosis: ServerDiagnosis = { name: spec.name, ok: false, steps };
  const unresolved = unresolvedServerError(spec);
  if (unresolved !== undefined) {
    // Its `${VAR}` or `${input:ID}` has no value: what it would start is unknown.
    steps.push({ step: spec.type === 'stdio' ? 'spawn' : 'connect', ok: false, ms: 0, detail: unresolved.message, ...(unresolved.hint === undefined ? {} : { hint: unresolved.hint }) });
    return diagnosis;
  }
  let transport: Transport | undefined;
  let stdio: StdioProcessTransport | undefined;
  try {
    const initializeParams = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'switchboard-doctor', version: VERSION } };
    const opened = spec.type === 'stdio' ? await openStdio(spec, steps, logger, initializeParams) : await openHttp(spec, steps, logger, initializeParams);
    if (opened === undefined) return diagnosis;
    transport = opened.transport;
    stdio = opened.stdio;
    const channel = opened.channel;
    const explainClose = (): { detail: string; hint?: string } => closeExplanation(spec, stdio);

    // initialize
    let started = opened.initializeSentAt;
    let serverVersion: string | undefined;
    try {
      const result = (await opened.initialize) as { protocolVersion?: unknown; serverInfo?: { name?: unknown; version?: unknown }; capabilities?: Record<string, unknown> } | undefined;
      serverVersion = typeof result?.protocolVersion === 'string' ? result.protocolVersion : undefined;
      const who = result?.serverInfo === undefined ? 'unnamed server' : `${String(result.serverInfo.name)} ${String(result.serverInfo.version)}`;
      if (serverVersion === undefined || !SUPPORTED_PROTOCOL_VERSIONS.includes(serverVersion)) {
        push(steps, 'initialize', started, false, `${who} answered with protocol version ${String(serverVersion)}; this client speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`, 'upgrade the server (or this client) so that both speak a common version');
        return diagnosis;
      }
      transport.setProtocolVersion?.(serverVersion);
      push(steps, 'initialize', started, true, `${who}, protocol ${serverVersion}, capabilities: ${Object.keys(result?.capabilities ?? {}).join(', ') || 'none'}`);
      if (result?.capabilities?.tools === undefined) {
        steps.push({ step: 'list-tools', ok: false, ms: 0, detail: 'the server does not offer tools (no tools capability)', hint: 'it may offer only resources or prompts; nothing for an agent to call' });
        return diagnosis;
      }
    } catch (error) {
      if (error instanceof NoAnswerError) {
        push(steps, 'initialize', started, false, `no answer to initialize within ${spec.startupTimeoutMs / 1000} s${stderrSuffix(stdio)}`,
          spec.type === 'stdio'
            ? 'the server may wait for input, print its messages somewhere else, or still be downloading (npx); raise `timeout` if it is just slow'
            : 'the endpoint accepted the request but never answered; check that it is an MCP endpoint');
      } else if (error instanceof ChannelClosedError) {
        await stdio?.waitForExit(500);
        const { detail, hint } = explainClose();
        const spawn = steps.find((step) => step.step === 'spawn');
        if (stdio !== undefined && spawn !== undefined && !channel.hasReceived) {
          // It exited before saying anything: a failed start, however long the machine took to get there
          // (the watch after spawn is short; a loaded machine starts Node slower than that).
          Object.assign(spawn, { ok: false, detail: `the process ${detail}`, ...(hint === undefined ? {} : { hint }) });
        } else {
          push(steps, 'initialize', started, false, `the server closed the connection during initialize: ${detail}`, hint);
        }
      } else if (error instanceof RpcError && error.code === -32022) {
        push(steps, 'initialize', started, false, `the server refused protocol ${LATEST_PROTOCOL_VERSION}: ${error.message}`, 'it may speak only the 2026-07-28 protocol; set `protocol: auto` for this server');
      } else {
        const mapped = toSwitchboardError(error, { server: spec.name });
        push(steps, 'initialize', started, false, mapped.message, mapped.hint ?? httpHint(mapped.details.status));
      }
      return diagnosis;
    }

    // initialized
    started = performance.now();
    try {
      await channel.notify('notifications/initialized');
      push(steps, 'initialized', started, true);
    } catch (error) {
      const mapped = toSwitchboardError(error, { server: spec.name });
      push(steps, 'initialized', started, false, mapped.message, mapped.hint);
      return diagnosis;
    }

    // list-tools
    started = performance.now();
    try {
      const names: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_LIST_PAGES; page++) {
        const result = (await channel.request('tools/list', cursor === undefined ? undefined : { cursor }, spec.callTimeoutMs)) as { tools?: unknown; nextCursor?: unknown } | undefined;
        if (!Array.isArray(result?.tools)) throw new Error('the result has no `tools` array');
        for (const tool of result.tools) names.push(String((tool as { name?: unknown }).name));
        if (typeof result.nextCursor !== 'string' || result.nextCursor === '' || result.nextCursor === cursor) break;
        cursor = result.nextCursor;
      }
      if (names.length === 0) {
        push(steps, 'list-tools', started, false, 'the server lists no tools', 'it may need arguments, environment variables or client capabilities (such as roots) to offer any');
        return diagnosis;
      }
      const shown = names.slice(0, 8).join(', ');
      push(steps, 'list-tools', started, true, `${names.length} tool${names.length === 1 ? '' : 's'}: ${shown}${names.length > 8 ? ', …' : ''}`);
    } catch (error) {
      if (error instanceof ChannelClosedError) {
        await stdio?.waitForExit(500);
        const { detail, hint } = explainClose();
        push(steps, 'list-tools', started, false, `the server closed the connection: ${detail}`, hint);
      } else if (error instanceof NoAnswerError) {
        push(steps, 'list-tools', started, false, `no answer to tools/list within ${spec.callTimeoutMs / 1000} s`, 'the server may be stuck; check its logs');
      } else {
        push(steps, 'list-tools', started, false, `tools/list failed: ${error instanceof Error ? error.message : String(error)}`, 'the server broke the MCP tools/list format or failed; report it to its author');
      }
      return diagnosis;
    }

    // ping
    started = performance.now();
    try {
      await channel.request('ping', undefined, Math.min(spec.callTimeoutMs, 10_000));
      push(steps, 'ping', started, true);
    } catch (error) {
      const detail = error instanceof RpcError ? `ping failed: ${error.message}` : error instanceof NoAnswerError ? 'no answer to ping' : String(error);
      push(steps, 'ping', started, false, detail, 'ping is required by the spec; the server may not implement it (tool calls may still work)');
      return diagnosis;
    }
    diagnosis.ok = steps.every((step) => step.ok);
    return diagnosis;
  } catch (error) {
    logger.debug('doctor failed unexpectedly', { server: spec.name, error: String(error) });
    steps.push({ step: steps.length === 0 ? (spec.type === 'stdio' ? 'spawn' : 'connect') : 'initialize', ok: false, ms: 0, detail: String(error) });
    return diagnosis;
  } finally {
    try {
      await transport?.close();
    } catch {
      // best effort
    }
    await stdio?.close();
  }
}

interface Opened {
  transport: Transport;
  stdio: StdioProcessTransport | undefined;
  channel: RawChannel;
  /** The answer to initialize, sent as part of opening. */
  initialize: Promise<unknown>;
  initializeSentAt: number;
}

async function openStdio(spec: StdioServerSpec, steps: DoctorStep[], logger: Logger, initializeParams: Record<string, unknown>): Promise<Opened | undefined> {
  const started = performance.now();
  const stdio = createStdioTransport(spec, logger);
  const channel = new RawChannel(stdio, createMessageTrace(spec, logger));
  try {
    await stdio.start();
  } catch (error) {
    const mapped = toSwitchboardError(error, { server: spec.name });
    push(steps, 'spawn', started, false, mapped.message, mapped.hint);
    return undefined;
  }
  const spawnedMs = Math.round(performance.now() - started);
  if (await channel.closesWithin(SPAWN_WATCH_MS)) {
    await stdio.waitForExit(500);
    const { detail, hint } = closeExplanation(spec, stdio);
    steps.push({ step: 'spawn', ok: false, ms: spawnedMs, detail: `the process ${detail}`, ...(hint === undefined ? {} : { hint }) });
    await stdio.close();
    return undefined;
  }
  steps.push({ step: 'spawn', ok: true, ms: spawnedMs, detail: `${[spec.command, ...spec.args].join(' ')} (pid ${stdio.pid ?? '?'})` });
  const initializeSentAt = performance.now();
  return { transport: stdio, stdio, channel, initialize: channel.request('initialize', initializeParams, spec.startupTimeoutMs), initializeSentAt };
}

/**
 * Streamable HTTP has no connection before the first POST, so `connect` is the HTTP exchange of the
 * initialize request and `initialize` its JSON-RPC answer. A 4xx (other than 401/403) falls back to
 * legacy SSE, whose `connect` is the GET that opens the event stream.
 */
async function openHttp(spec: HttpServerSpec, steps: DoctorStep[], logger: Logger, initializeParams: Record<string, unknown>): Promise<Opened | undefined> {
  const started = performance.now();
  const kinds: Array<'http' | 'sse'> = spec.transport === 'auto' ? ['http', 'sse'] : [spec.transport];
  const notes: string[] = [];
  const trace = createMessageTrace(spec, logger);
  for (const kind of kinds) {
    const transport = await createHttpTransport(kind, spec, { logger });
    const channel = new RawChannel(transport, trace);
    try {
      await transport.start();
      const initializeSentAt = performance.now();
      const { sent, answered } = channel.send('initialize', initializeParams, spec.startupTimeoutMs);
      await sent;
      const detail = kind === 'sse' ? `legacy SSE at ${spec.url}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}` : `Streamable HTTP at ${spec.url}`;
      push(steps, 'connect', started, true, detail, kind === 'sse' && notes.length > 0 ? 'set `transport: sse` to skip the Streamable HTTP attempt' : undefined);
      return { transport, stdio: undefined, channel, initialize: answered, initializeSentAt };
    } catch (error) {
      await transport.close().catch(() => {});
      const mapped = toSwitchboardError(error, { server: spec.name });
      const status = typeof mapped.details.status === 'number' ? mapped.details.status : undefined;
      if (kind === 'http' && spec.transport === 'auto' && status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403) {
        notes.push(`Streamable HTTP answered ${status}`);
        continue;
      }
      const prefix = notes.length > 0 ? `${notes.join('; ')}; legacy SSE: ` : '';
      push(steps, 'connect', started, false, `${prefix}${mapped.reason}`, mapped.hint ?? httpHint(status));
      return undefined;
    }
  }
  return undefined;
}

function closeExplanation(spec: ServerSpec, stdio: StdioProcessTransport | undefined): { detail: string; hint?: string } {
  const exit = stdio?.exit;
  if (exit === undefined) return { detail: 'the connection closed' };
  const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  return {
    detail: `${how}${stderrSuffix(stdio)}`,
    hint: spec.type === 'stdio' ? `run it by hand to see why: ${[spec.command, ...spec.args].join(' ')}` : undefined,
  };
}

function stderrSuffix(stdio: StdioProcessTransport | undefined): string {
  const tail = stdio?.stderr.tail(10) ?? '';
  return tail === '' ? '' : `; stderr:\n${tail}`;
}

function httpHint(status: unknown): string | undefined {
  if (status === 404) return 'check the URL path; a 404 on a Streamable HTTP URL may mean an SSE-only server (its URL usually ends in /sse)';
  if (status === 401) return 'set `apiKey` or an Authorization header, or log in with `switchboard login`';
  if (status === 403) return 'the credentials lack permission for this server';
  return undefined;
}

function push(steps: DoctorStep[], step: DoctorStepName, started: number, ok: boolean, detail?: string, hint?: string): void {
  const ms = Math.round(performance.now() - started);
  const slowHint = ok && ms > SLOW_STEP_MS ? `slow: ${ms} ms` : undefined;
  const finalHint = hint ?? slowHint;
  steps.push({ step, ok, ms, ...(detail === undefined ? {} : { detail }), ...(finalHint === undefined ? {} : { hint: finalHint }) });
}
