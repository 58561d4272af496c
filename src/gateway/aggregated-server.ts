/**
 * @module gateway/aggregated-server
 * The MCP server a downstream client talks to: one low-level SDK `Server` over one user's
 * {@link UserClient}. `tools/list` is the user's catalog (names, schemas, annotations and output
 * schemas passed through); `tools/call` goes through the client with the downstream request's abort
 * signal (cancellation reaches the upstream) and its progress token (progress comes back); resources,
 * prompts and completions are forwarded to the server that owns them. Upstream requests and logs in
 * the middle of a call find their way back through the {@link CallTracker}.
 *
 * One instance per 2025-era session or stdio connection, or per 2026-07-28 request (the SDK's
 * serving entries build them from a factory).
 */

import { type CallToolResult, inputRequired, type InputRequiredResult, ProtocolError, ProtocolErrorCode, Server, type ServerContext, UriTemplate } from '@modelcontextprotocol/server';
import type { CatalogTool } from '../client/multi-server-client.js';
import type { ProgressUpdate } from '../connection/progress-update.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { RegistryUser } from '../registry/index.js';
import type { UserClient } from '../pool/index.js';
import { VERSION } from '../version.js';
import type { AskClient, ToolGate } from './access/tool-gate.js';
import { noPrompt, noResource, requireShown, shownItems } from './endpoint-items.js';
import { Conversation, type CallConversations } from './call-conversations.js';
import type { CallDownstream, CallTracker } from './call-tracker.js';
import { DEFAULT_FORWARDED_REQUEST_TIMEOUT_MS } from './gateway-defaults.js';
import { isLogLevel, passesLevel, type DownstreamSession, type UpstreamResource } from './downstream-session.js';
import { failureResult, isRecord, toProtocolError, toWirePromptResult, toWireReadResult, toWireResult } from './wire-format.js';
import { listedTools, routeToolCall } from './gateway-tool-search.js';
import { toWirePrompt, toWireResource } from './wire-catalog.js';
import { incomingTrace } from './incoming-trace.js';
import type { GatewayTasks } from './gateway-tasks.js';
import { GATEWAY_TASKS_CAPABILITY, registerTaskHandlers, startTaskCall } from './task-handlers.js';
import { taskSupportOf } from '../client/tasks/task-types.js';
import { UI_EXTENSION_ID } from '../client/mcp-apps.js';

/** What an aggregated server needs from its surroundings (the user's endpoint). */
export interface AggregatedServerHost {
  readonly user: RegistryUser;
  /** The user's client, for the request being served. */
  client(): UserClient;
  readonly tracker: CallTracker;
  readonly logger: Logger;
  /** A tool call starts on `request` (the HTTP request it came on; none over stdio). */
  callStarted(request: Request | undefined): void;
  /** 2026-07-28 calls waiting for their client to come back with answers to an upstream's questions. */
  readonly conversations: CallConversations;
  /** Tasks the user started through the gateway (2025-era sessions). */
  readonly tasks: GatewayTasks;
  /** Subscribes the user's connection to an upstream resource (reference-counted per user). */
  subscribe(resource: UpstreamResource, signal: AbortSignal): Promise<void>;
  unsubscribe(resource: UpstreamResource): Promise<void>;
  /** What this caller may list and call here (tool rules, endpoint selection, limits, approvals). */
  readonly toolGate?: ToolGate | undefined;
}

/** Options of {@link createAggregatedServer}. */
export interface AggregatedServerOptions {
  host: AggregatedServerHost;
  era: 'legacy' | 'modern';
  /** The long-lived connection this instance serves (2025 sessions and stdio); none for a 2026 request. */
  session?: DownstreamSession;
}

/** The capabilities the gateway offers downstream (whatever the upstreams offer is reachable through them). */
export const GATEWAY_CAPABILITIES = {
  tools: { listChanged: true },
  resources: { listChanged: true, subscribe: true },
  prompts: { listChanged: true },
  logging: {},
  completions: {},
  // MCP Apps pass through: a client that declares the extension gets the tools' UI metadata.
  extensions: { [UI_EXTENSION_ID]: {} },
};

/** Builds the server for one downstream connection (2025) or request (2026-07-28). */
export function createAggregatedServer(options: AggregatedServerOptions): Server {
  const { host, era, session } = options;
  // Tasks are 2025-11-25 vocabulary: offered on 2025-era sessions only.
  const capabilities = era === 'legacy' ? { ...GATEWAY_CAPABILITIES, tasks: GATEWAY_TASKS_CAPABILITY } : GATEWAY_CAPABILITIES;
  const server = new Server({ name: 'mcp-switchboard', version: VERSION }, { capabilities, instructions: instructionsOf(host.client()) });
  if (session !== undefined) session.server = server;
  if (era === 'legacy') registerTaskHandlers(server, host);

  server.setRequestHandler('tools/list', () => ({ tools: listedTools(host.client(), host.toolGate, server.getClientCapabilities()) }));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const client = host.client();
    // Under tool search, search_tools is answered here and call_tool becomes the call of the tool it names.
    const routed = routeToolCall(client, request.params.name, request.params.arguments ?? {}, host.toolGate);
    if ('answer' in routed) return routed.answer;
    let { name } = routed;
    const { args } = routed;
    if (host.toolGate !== undefined) {
      // The listed name routes to its catalog tool; a refusal reads the same whether or not the tool exists.
      try {
        name = (await host.toolGate.authorize(client, name, args, { signal: ctx.mcpReq.signal, askClient: era === 'legacy' ? askClientOf(server, ctx) : undefined }))?.name ?? name;
      } catch (error) {
        return callFailure(error, ctx.mcpReq.signal);
      }
    }
    const tool = client.getTool(name);
    if (tool === undefined) {
      // The client's own refusal says why (no such tool, or its server is down); it never calls out.
      return callFailure(await client.callTool(name, args).then(() => undefined, (error: unknown) => error), ctx.mcpReq.signal);
    }
    if (era === 'modern') return modernCall(server, host, ctx, tool, args);
    if (request.params.task !== undefined && taskSupportOf(tool) !== 'forbidden') return startTaskCall(host, tool, args, request.params.task.ttl, ctx.mcpReq.signal);
    const downstream = downstreamOf(server, ctx, era, session);
    host.callStarted(ctx.http?.req);
    const { call, end } = host.tracker.begin(host.user.id, tool.server, downstream, ctx.mcpReq.signal);
    try {
      const signal = call.abort.signal;
      const progressToken = ctx.mcpReq._meta?.progressToken;
      const onProgress =
        progressToken === undefined
          ? undefined
          : (progress: ProgressUpdate): void => {
              ctx.mcpReq
                .notify({ method: 'notifications/progress', params: { progressToken, progress: progress.progress, ...(progress.total === undefined ? {} : { total: progress.total }), ...(progress.message === undefined ? {} : { message: progress.message }) } })
                .catch(() => {});
            };
      const traceContext = incomingTrace(ctx);
      const result = await client.callTool(name, args, { signal, ...(onProgress === undefined ? {} : { onProgress }), ...(traceContext === undefined ? {} : { traceContext }) });
      return server.projectCallToolResult(toWireResult(result), tool.outputSchema);
    } catch (error) {
      return callFailure(error, ctx.mcpReq.signal, call.abort.signal, tool);
    } finally {
      end();
    }
  });

  server.setRequestHandler('prompts/list', () => ({ prompts: shownItems(host.toolGate, host.client(), host.client().listPrompts()).map(toWirePrompt) }));

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    try {
      const client = host.client();
      const prompt = client.listPrompts().find((item) => item.name === request.params.name);
      if (prompt !== undefined) requireShown(host.toolGate, client, prompt.server, () => noPrompt(request.params.name));
      const result = await client.getPrompt(request.params.name, request.params.arguments ?? {}, { signal: ctx.mcpReq.signal });
      return toWirePromptResult(result);
    } catch (error) {
      throw toProtocolError(error);
    }
  });

  server.setRequestHandler('resources/list', () => ({ resources: shownItems(host.toolGate, host.client(), host.client().listResources()).map(toWireResource) }));

  server.setRequestHandler('resources/templates/list', () => ({
    resourceTemplates: shownItems(host.toolGate, host.client(), host.client().listResourceTemplates()).map(({ server: _server, ...template }) => template),
  }));

  server.setRequestHandler('resources/read', async (request, ctx) => {
    try {
      const client = host.client();
      // On a named endpoint only (where the owner decides), the owner is found once and judged once.
      const serves = host.toolGate?.servesPromptsOf(client);
      if (serves !== undefined && !serves((await resourceOwner(client, request.params.uri)).server)) throw noResource(request.params.uri);
      return toWireReadResult(await client.readResource(request.params.uri, { signal: ctx.mcpReq.signal }));
    } catch (error) {
      throw toProtocolError(error);
    }
  });

  server.setRequestHandler('resources/subscribe', async (request, ctx) => {
    const uri = request.params.uri;
    const upstream = await resourceOwner(host.client(), uri);
    try {
      requireShown(host.toolGate, host.client(), upstream.server, () => noResource(uri));
    } catch (error) {
      throw toProtocolError(error);
    }
    if (session !== undefined && session.subscriptions.has(uri)) return {};
    try {
      await host.subscribe(upstream, ctx.mcpReq.signal);
    } catch (error) {
      throw toProtocolError(host.client().disclose(error));
    }
    session?.subscriptions.set(uri, upstream);
    await session?.stateChanged?.();
    return {};
  });

  server.setRequestHandler('resources/unsubscribe', async (request) => {
    const upstream = session?.subscriptions.get(request.params.uri);
    if (upstream === undefined) return {};
    session?.subscriptions.delete(request.params.uri);
    await host.unsubscribe(upstream);
    await session?.stateChanged?.();
    return {};
  });

  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const client = host.client();
    const { ref } = request.params;
    let target: { server: string; ref: Record<string, unknown> } | undefined;
    if (ref.type === 'ref/prompt') {
      const prompt = shownItems(host.toolGate, client, client.listPrompts()).find((item) => item.name === ref.name);
      if (prompt !== undefined) target = { server: prompt.server, ref: { ...ref, name: prompt.originalName } };
    } else {
      const template = shownItems(host.toolGate, client, client.listResourceTemplates()).find((item) => item.uriTemplate === ref.uri);
      const resource = shownItems(host.toolGate, client, client.listResources()).find((item) => item.uri === ref.uri);
      if (template !== undefined) target = { server: template.server, ref: { ...ref } };
      else if (resource !== undefined) target = { server: resource.server, ref: { ...ref, uri: resource.originalUri } };
    }
    if (target === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no server offers ${ref.type === 'ref/prompt' ? `a prompt named "${ref.name}"` : `a resource template "${ref.uri}"`}`);
    let result: unknown;
    try {
      result = await client.complete(target.server, { ...request.params, ref: target.ref }, { signal: ctx.mcpReq.signal });
    } catch (error) {
      throw toProtocolError(client.disclose(error));
    }
    if (!isRecord(result) || !isRecord(result.completion) || !Array.isArray(result.completion.values)) {
      throw new ProtocolError(ProtocolErrorCode.InternalError, `server "${target.server}" answered completion/complete without completion values`);
    }
    const values = result.completion.values.filter((value): value is string => typeof value === 'string');
    const { total, hasMore } = result.completion;
    return { completion: { values, ...(typeof total === 'number' ? { total } : {}), ...(typeof hasMore === 'boolean' ? { hasMore } : {}) } };
  });

  // The gateway keeps the level itself: upstream logs are filtered per session, and during a call
  // they travel on the call's own stream (see UserEndpoint).
  server.setRequestHandler('logging/setLevel', async (request) => {
    if (session !== undefined && isLogLevel(request.params.level)) {
      session.logLevel = request.params.level;
      await session.stateChanged?.();
    }
    return {};
  });

  return server;
}

/**
 * A tool call of a 2026-07-28 client, in rounds: the upstream call runs in a {@link Conversation};
 * when the upstream asks a question the client gets `input_required` with it and the conversation's
 * id as `requestState`, and the call resumes when the client comes back with its answers. Progress
 * and logs go to the request of the current round.
 */
async function modernCall(server: Server, host: AggregatedServerHost, ctx: ServerContext, tool: CatalogTool, args: Record<string, unknown>): Promise<CallToolResult | InputRequiredResult> {
  const state = ctx.mcpReq.requestState<unknown>();
  let conversation: Conversation;
  const round: { ctx: ServerContext } = { ctx };
  if (typeof state === 'string') {
    const parked = host.conversations.take(state, host.user.id);
    if (parked === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'this requestState is unknown or has expired: call the tool again from the start');
    conversation = parked;
    conversation.answer(ctx.mcpReq.inputResponses);
  } else {
    conversation = new Conversation(host.user.id, host.conversations.idPrefix);
    const capabilities = server.getClientCapabilities();
    const downstream: CallDownstream = {
      key: conversation,
      era: 'modern',
      canElicit: capabilities?.elicitation !== undefined,
      canElicitUrl: capabilities?.elicitation?.url !== undefined,
      canSample: capabilities?.sampling !== undefined,
      request: (method, params, signal) => conversation.ask(method, params, signal),
      log: (level, data, logger) => {
        // The SDK applies the request's own log level (the 2026-07-28 envelope) and sends nothing without one.
        if (isLogLevel(level)) round.ctx.mcpReq.log(level, data, logger).catch(() => {});
      },
    };
    host.callStarted(ctx.http?.req);
    const { call, end } = host.tracker.begin(host.user.id, tool.server, downstream, conversation.abort.signal);
    const onProgress = (progress: ProgressUpdate): void => {
      const progressToken = round.ctx.mcpReq._meta?.progressToken;
      if (progressToken === undefined) return;
      round.ctx.mcpReq
        .notify({ method: 'notifications/progress', params: { progressToken, progress: progress.progress, ...(progress.total === undefined ? {} : { total: progress.total }), ...(progress.message === undefined ? {} : { message: progress.message }) } })
        .catch(() => {});
    };
    const traceContext = incomingTrace(ctx);
    conversation.run(host.client().callTool(tool.name, args, { signal: call.abort.signal, onProgress, ...(traceContext === undefined ? {} : { traceContext }) }), call.abort.signal, end);
  }
  round.ctx = ctx;
  // The client giving up on this round cancels the call.
  const cancel = (): void => conversation.abort.abort(ctx.mcpReq.signal.reason);
  ctx.mcpReq.signal.addEventListener('abort', cancel, { once: true });
  try {
    const step = await conversation.next();
    if (step.kind === 'ask') {
      host.conversations.park(conversation);
      return inputRequired({
        inputRequests: Object.fromEntries(step.questions.map((question) => [question.key, { method: question.method, params: question.params }])) as InputRequiredResult['inputRequests'],
        requestState: conversation.id,
      });
    }
    if (step.kind === 'failed') return callFailure(step.error, ctx.mcpReq.signal, conversation.callSignal, tool);
    return server.projectCallToolResult(toWireResult(step.result), tool.outputSchema);
  } finally {
    ctx.mcpReq.signal.removeEventListener('abort', cancel);
  }
}

/** The SDK's own deadline for an approval elicitation (the endpoint's timeout, carried by the signal, is shorter). */
const APPROVAL_REQUEST_TIMEOUT_MS = 3_600_000;

/** An elicitation to the 2025 client of this call, when it declared it can answer one: accepted or not. */
function askClientOf(server: Server, ctx: ServerContext): AskClient | undefined {
  if (server.getClientCapabilities()?.elicitation === undefined) return undefined;
  return async (message, signal) => {
    const answer = await ctx.mcpReq.send({ method: 'elicitation/create', params: { message, requestedSchema: { type: 'object', properties: {} } } }, { ...(signal === undefined ? {} : { signal }), timeout: APPROVAL_REQUEST_TIMEOUT_MS });
    return isRecord(answer) && answer.action === 'accept';
  };
}

/** How the call's client is reached: its own stream, its declared capabilities, its log level. */
function downstreamOf(server: Server, ctx: ServerContext, era: 'legacy', session: DownstreamSession | undefined): CallDownstream {
  const capabilities = server.getClientCapabilities();
  return {
    key: session ?? server,
    era,
    canElicit: capabilities?.elicitation !== undefined,
    canElicitUrl: capabilities?.elicitation?.url !== undefined,
    canSample: capabilities?.sampling !== undefined,
    request: (method, params, signal) =>
      ctx.mcpReq.send({ method, params }, { signal, timeout: DEFAULT_FORWARDED_REQUEST_TIMEOUT_MS, resetTimeoutOnProgress: true }),
    log: (level, data, logger) => {
      const threshold = session?.logLevel;
      if (threshold === undefined || !isLogLevel(level) || !passesLevel(level, threshold)) return;
      ctx.mcpReq.notify({ method: 'notifications/message', params: { level, data, ...(logger === undefined ? {} : { logger }) } }).catch(() => {});
    },
  };
}

/**
 * A failed call, answered the way a client can use it: unknown tools and an upstream's own JSON-RPC
 * errors as protocol errors; everything else (timeouts, a server down, the user's call limit, bad
 * arguments) as a tool result with `isError: true` whose text says what happened.
 */
export function callFailure(error: unknown, downstreamSignal: AbortSignal, gatewaySignal?: AbortSignal, tool?: CatalogTool): CallToolResult {
  if (!isSwitchboardError(error)) throw toProtocolError(error);
  if (error.code === ErrorCode.ToolNotFound || (error.code === ErrorCode.ServerRequestFailed && typeof error.details.rpcCode === 'number')) throw toProtocolError(error);
  if (error.code === ErrorCode.RequestCancelled && downstreamSignal.aborted) throw toProtocolError(error);
  if (gatewaySignal?.aborted === true) {
    return failureResult(`Tool "${tool?.name ?? '?'}" was cancelled: the gateway is shutting down. Call it again once it is back.`);
  }
  return failureResult(error.message);
}

/** The server that owns a resource URI, and the URI as that server names it. */
async function resourceOwner(client: UserClient, uri: string): Promise<UpstreamResource> {
  const listed = client.listResources().find((resource) => resource.uri === uri);
  if (listed !== undefined) return { server: listed.server, uri: listed.originalUri };
  const matching = client.listResourceTemplates().filter((template) => new UriTemplate(template.uriTemplate).match(uri) !== null);
  const servers = [...new Set(matching.map((template) => template.server))];
  if (servers.length === 1 && servers[0] !== undefined) return { server: servers[0], uri };
  throw toProtocolError(
    new SwitchboardError(ErrorCode.InvalidArgument, servers.length === 0 ? `no server offers a resource at "${uri}"` : `several servers may serve "${uri}" (${servers.join(', ')})`),
  );
}

/** Instructions of the ready upstreams, each under its server's name. */
export function instructionsOf(client: UserClient): string | undefined {
  const parts: string[] = [];
  for (const status of client.status()) {
    const instructions = status.state === 'ready' ? client.instructions(status.name) : undefined;
    if (instructions !== undefined && instructions.trim() !== '') parts.push(`[${status.name}] ${instructions.trim()}`);
  }
  return parts.length === 0 ? undefined : parts.join('\n\n');
}
