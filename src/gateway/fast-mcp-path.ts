/**
 * @module gateway/fast-mcp-path
 * The hot methods of `/mcp` answered on the Node request itself, before Hono and the SDK's
 * transports: `tools/call`, `tools/list` and `ping` of an open 2025-era session, and `tools/call` of a
 * 2026-07-28 stateless request. Under load the general path spent ~700–850 µs of gateway CPU per call
 * (web Request/Response conversion, the SDK's transport and schema parses, a stream per answer); this
 * one does what a bare forwarder does plus the gateway's guarantees (see bench/README.md, issue 17).
 *
 * Every guarantee of the general path holds here: the Host/Origin check, the bearer token (the same
 * short-lived cache; a token not in it is checked and cached here), the body limit, the session's owner,
 * the user's concurrent-call limit and audit entry (in the user's client), metrics and the request log,
 * cancellation (`notifications/cancelled` of the session, or the client going away) and the shutdown's
 * wait for running calls (the call tracker). `tools/list` answers as the general path's (UI metadata
 * only to MCP Apps hosts, see wire-catalog).
 *
 * Anything else — another method, a batch, progress tokens, a client that can answer elicitation or
 * sampling (its call may need a stream), a session log level, an unknown tool, an output schema on
 * 2026-07-28, a task-augmented call, a trace context (`_meta` or `traceparent`), an unknown or list-only
 * token, tool rules, limits or tool search for the caller, shutdown — goes to the general path
 * unchanged; a body already read is handed over with {@link takeReadBody}.
 */

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { isProtocolErrorLike, jsonRpcErrorOf } from './fast-mcp-errors.js';
import { projectStructured, stampModern } from './fast-mcp-results.js';
import type { Gateway } from './gateway.js';
import type { LegacySession } from './legacy-session.js';
import { readJsonBodyThen, type JsonBody } from './read-node-body.js';
import { callFailure } from './aggregated-server.js';
import { answerText, messageText, resultMessageText, writeAccepted, writeJsonMessage, writeSseEnd, writeSseMessage } from './fast-mcp-answers.js';
import { toolsListJson } from './tools-list-cache.js';
import { toWireResult } from './wire-format.js';
import type { CatalogTool } from '../client/multi-server-client.js';
import type { ClientLease, UserClient } from '../pool/index.js';
import type { ToolResult } from '../result/tool-result.js';
import { FULL_SCOPE, scopesAllow } from './oauth-server/mcp-scope.js';
import type { RegistryUser } from '../registry/index.js';
import { toolSearchSettingsOf } from './gateway-tool-search.js';
import { HOP_HEADER } from './replica-hop.js';
import { RunningCalls, type RunningCall } from './running-calls.js';
import { callOf, isCancellation, isModernEnvelope, MODERN_VERSION, rpcRequestOf, type JsonObject } from './fast-mcp-requests.js';

/** Bodies the fast path read and handed to the general path (it must not read the request again). */
const readBodies = new WeakMap<IncomingMessage, JsonBody>();

/** The body the fast path already read from `incoming`, once. */
export function takeReadBody(incoming: IncomingMessage): JsonBody | undefined {
  const body = readBodies.get(incoming);
  readBodies.delete(incoming);
  return body;
}

const LEGACY_VERSIONS = new Set(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']);

/** The downstream signal of a fast-path call as `callFailure` sees it: a cancelled call gets no answer at all. */
const NEVER_ABORTED = new AbortController().signal;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const noop = (): void => {};

/** One HTTP exchange of the fast path: for its log line, metrics and headers. */
interface Exchange {
  started: number;
  requestId: string;
  user: RegistryUser;
}

/** The fast path of one gateway. */
export class FastMcpPath {
  readonly #gateway: Gateway;
  /** Fast-path calls of 2025 sessions in flight (for `notifications/cancelled`). */
  readonly #running = new RunningCalls();
  #nextId = 0;
  readonly #idPrefix = `f${randomBytes(4).toString('hex')}`;

  constructor(gateway: Gateway) {
    this.#gateway = gateway;
    gateway.onRemoteCancel((sessionId, requestId, reason) => {
      const session = gateway.mcp.session(sessionId);
      return session !== undefined && this.#running.abort(session, requestId, reason);
    });
  }

  /** Serves `incoming` here, or calls `general` (the Hono app) for it. */
  serve(incoming: IncomingMessage, outgoing: ServerResponse, general: () => void): void {
    const started = performance.now();
    const headers = incoming.headers;
    const gateway = this.#gateway;
    if (incoming.method !== 'POST' || incoming.url !== '/mcp' || gateway.shuttingDown || headers.traceparent !== undefined || headers[HOP_HEADER] !== undefined || !isJson(headers['content-type']) || !acceptsBoth(headers.accept)) return general();
    const view = headerView(incoming);
    if (gateway.hostCheck(view) !== undefined) return general();
    const authorization = headers.authorization;
    const match = authorization === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (match?.[1] === undefined) return general();
    const cached = gateway.cachedUser(match[1], incoming.socket);
    if (cached !== undefined) return this.#serveAs(cached, incoming, outgoing, general, started);
    // Not verified lately: checked here (a cancellation must reach the fast path running its call); a refusal or a list-only scope is the general path's.
    gateway.authenticateCaller(view).then(
      (caller) => (scopesAllow(caller.scopes, FULL_SCOPE) ? this.#serveAs(caller.user, incoming, outgoing, general, started) : general()),
      () => general(),
    ).catch((error: unknown) => this.#failed(error, outgoing));
  }

  #serveAs(user: RegistryUser, incoming: IncomingMessage, outgoing: ServerResponse, general: () => void, started: number): void {
    const gateway = this.#gateway;
    const headers = incoming.headers;
    const sessionId = headers['mcp-session-id'];
    let session: LegacySession | undefined;
    if (typeof sessionId === 'string') {
      session = gateway.mcp.session(sessionId);
      if (session === undefined || session.userId !== user.id) return general();
      const version = headers['mcp-protocol-version'];
      if (version !== undefined && !LEGACY_VERSIONS.has(version as string)) return general();
    } else if (headers['mcp-protocol-version'] !== MODERN_VERSION) {
      return general();
    }
    // In the request's own `end` event, no promise (issue 17); a throw here is a bug, answered as one.
    readJsonBodyThen(
      incoming,
      gateway.maxBodyBytes,
      (body) => {
        try {
          const handed = (): void => {
            readBodies.set(incoming, body);
            general();
          };
          if (body.kind !== 'json') return handed();
          const exchange = this.#exchange(incoming, user, started);
          const served = session === undefined ? this.#modern(body.value, incoming, outgoing, user, exchange) : this.#legacy(body.value, outgoing, session, exchange);
          if (!served) handed();
        } catch (error) {
          this.#failed(error, outgoing);
        }
      },
      () => general(),
    );
  }

  /** A bug on the fast path: logged, and answered as the general path answers an unexpected failure. */
  #failed(error: unknown, outgoing: ServerResponse): void {
    this.#gateway.logger.error('an /mcp request failed unexpectedly', { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    if (outgoing.headersSent || outgoing.destroyed) return;
    const text = JSON.stringify({ jsonrpc: '2.0', id: null, error: jsonRpcErrorOf(undefined) });
    outgoing.writeHead(500, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    outgoing.end(text);
  }

  /** A 2025-era session's request; false when it is not one for the fast path. */
  #legacy(value: unknown, outgoing: ServerResponse, session: LegacySession, exchange: Exchange): boolean {
    // Served awake or dormant (no SDK server built): the session keeps what its client declared.
    const capabilities = session.clientCapabilities;
    if (capabilities === undefined) return false;
    if (capabilities?.elicitation !== undefined || capabilities?.sampling !== undefined || session.record.logLevel !== undefined) return false;
    if (isCancellation(value)) return this.#cancel(value, outgoing, session, exchange);
    const request = rpcRequestOf(value);
    if (request === undefined || request.params._meta !== undefined) return false;
    const client = session.client();
    if (client === undefined) return false;
    if (request.method === 'ping') {
      this.#send(outgoing, session, messageText(request.id, { result: {} }), exchange);
      return true;
    }
    if (!this.#plain(session.userId, client)) return false;
    if (request.method === 'tools/list') {
      if (Object.keys(request.params).length > 0) return false;
      this.#send(outgoing, session, resultMessageText(request.id, toolsListJson(client, capabilities)), exchange);
      return true;
    }
    const call = callOf(request, client);
    if (call === undefined) return false;
    // One controller per call: the tracker's (aborted at shutdown), also aborted by a cancellation or the client going away.
    const tracked = this.#gateway.calls.begin(session.userId, call.tool.server, { key: session.record, era: 'legacy', canElicit: false, canSample: false }, undefined, true);
    const abort = tracked.call.abort;
    const gone = (): void => abort.abort(new Error('the client went away'));
    let ended = noop;
    let running: RunningCall | undefined;
    this.#call(client, call, tracked, (result) => {
      // The answer first, the bookkeeping after it: at one connection it is all on the client's wait.
      outgoing.off('close', gone);
      try {
        if (this.#running.cancelled(abort)) {
          // A cancelled request gets no answer (the spec's rule, as the SDK keeps it): its stream just ends.
          if (!outgoing.destroyed) {
            writeSseEnd(outgoing, session.id, exchange.requestId);
            this.#observe(exchange, 200);
          }
        } else {
          this.#send(outgoing, session, answerText(request.id, () => (result.kind === 'result' ? { result: result.structured ? session.projectCallToolResult(result.value, call.tool.outputSchema) : result.value } : { error: result.error })), exchange);
        }
      } finally {
        if (running !== undefined) this.#running.untrack(session, running);
        ended();
      }
    });
    // After the call's request is on the pipe (it is written in the call above, at one connection on
    // the client's wait): what only an answer, a cancellation or a disconnect needs, none of which can
    // arrive before this turn ends.
    // A client may reuse an id while a call is running (nothing forbids it on the wire): a cancellation of that id cancels every such call.
    running = this.#running.track(session, request.id, abort);
    ended = session.exchange();
    // `on`, not `once` (no wrapper per call): it is taken off in the answer, and a second abort does nothing.
    outgoing.on('close', gone);
    return true;
  }

  /** `notifications/cancelled` of a fast-path call: the call is aborted (202, as the SDK answers notifications). */
  #cancel(value: JsonObject, outgoing: ServerResponse, session: LegacySession, exchange: Exchange): boolean {
    const params = value.params as JsonObject;
    if (!this.#running.abort(session, params.requestId as string | number, typeof params.reason === 'string' ? params.reason : undefined)) return false;
    writeAccepted(outgoing, exchange.requestId);
    this.#observe(exchange, 202);
    return true;
  }

  /** A 2026-07-28 stateless `tools/call`; false when it is not one for the fast path. */
  #modern(value: unknown, incoming: IncomingMessage, outgoing: ServerResponse, user: RegistryUser, exchange: Exchange): boolean {
    const request = rpcRequestOf(value);
    if (request === undefined || request.method !== 'tools/call') return false;
    const headers = incoming.headers;
    if (headers['mcp-method'] !== 'tools/call' || headers['mcp-name'] !== request.params.name || !isModernEnvelope(request.params._meta)) return false;
    const endpoint = this.#gateway.mcp.endpointOf(user);
    let client: UserClient;
    try {
      client = endpoint.client();
    } catch {
      return false;
    }
    if (!this.#plain(user.id, client)) return false;
    const call = callOf(request, client);
    // An output schema is projected by the 2026-07-28 codec, which lives in the SDK's per-request server.
    if (call === undefined || call.tool.outputSchema !== undefined) return false;
    const tracked = this.#gateway.calls.begin(user.id, call.tool.server, { key: {}, era: 'modern', canElicit: false, canSample: false }, undefined, true);
    const gone = (): void => tracked.call.abort.abort(new Error('the client went away'));
    // `on`, as for a 2025 call: taken off when the answer is written or the lease fails.
    outgoing.on('close', gone);
    const run = (lease: ClientLease): void => {
      endpoint.bind(lease.client);
      this.#call(lease.client, call, tracked, (result) => {
        try {
          outgoing.off('close', gone);
          this.#sendJson(outgoing, answerText(request.id, () => (result.kind === 'result' ? { result: stampModern(result.structured ? projectStructured(result.value) : result.value) } : { error: result.error })), exchange);
        } finally {
          lease.release();
        }
      });
    };
    // The client is up (the usual case): leased at once, without the pool's promise.
    const leased = this.#gateway.leaseNow(user);
    if (leased !== undefined) {
      run(leased);
      return true;
    }
    void this.#gateway.lease(user).then(
      run,
      (error: unknown) => {
        tracked.end();
        outgoing.off('close', gone);
        this.#sendJson(outgoing, messageText(request.id, { error: jsonRpcErrorOf(error) }), exchange);
      },
    );
    return true;
  }

  /**
   * True when nothing but the catalog decides what this user lists and calls on `/mcp`: the `/mcp`
   * switch is on for them, no tool rule or rate limit concerns them and tool search is off. Otherwise
   * the general path answers, which applies them all.
   */
  #plain(userId: string, client: UserClient): boolean {
    const user = client.user;
    if (user.id !== userId) return false;
    const access = this.#gateway.access;
    const gate = access.gateFor(user);
    if ((toolSearchSettingsOf(client, gate)?.mode ?? 'off') !== 'off') return false;
    return access.everythingAllowed(user) && gate.unrestricted;
  }

  /**
   * Runs a call through the user's client (its limit, audit and cancellation), tracked for the shutdown,
   * and gives `answer` how it ended. Not `async` and no promise of its own: the answer is made in the
   * call's own reaction (issue 17).
   */
  #call(client: UserClient, call: { tool: CatalogTool; args: JsonObject }, tracked: ReturnType<Gateway['calls']['begin']>, answer: (outcome: CallOutcome) => void): void {
    const signal = tracked.call.abort.signal;
    // The answer first, the tracker's end after it (the shutdown then also waits for the answer's write).
    const settle = (outcome: CallOutcome): void => {
      try {
        answer(outcome);
      } finally {
        tracked.end();
      }
    };
    let running: Promise<ToolResult>;
    try {
      running = client.callTool(call.tool.name, call.args, { signal });
    } catch (error) {
      queueMicrotask(() => settle(outcomeOfFailure(error, signal, call.tool)));
      return;
    }
    void running.then((raw) => {
      let outcome: CallOutcome;
      try {
        const value = toWireResult(raw);
        outcome = { kind: 'result', value, structured: value.structuredContent !== undefined };
      } catch (error) {
        outcome = outcomeOfFailure(error, signal, call.tool);
      }
      settle(outcome);
    }, (error: unknown) => settle(outcomeOfFailure(error, signal, call.tool)));
  }

  /** A 2025-era session's answer (`message`: its JSON text), observed. */
  #send(outgoing: ServerResponse, session: LegacySession, message: string, exchange: Exchange): void {
    if (outgoing.destroyed) return;
    writeSseMessage(outgoing, session.id, exchange.requestId, message);
    this.#observe(exchange, 200);
  }

  /** A 2026-07-28 request's JSON answer (`message`: its text), observed. */
  #sendJson(outgoing: ServerResponse, message: string, exchange: Exchange): void {
    if (outgoing.destroyed) return;
    writeJsonMessage(outgoing, exchange.requestId, message);
    this.#observe(exchange, 200);
  }

  /** The metrics and the request log line of the general path. */
  #observe(exchange: Exchange, status: number): void {
    const ms = performance.now() - exchange.started;
    this.#gateway.metrics.observeRequest('POST', '/mcp', status, ms / 1000);
    const logger = this.#gateway.logger;
    // The line's fields are built only when the level keeps them (a quiet gateway drops them).
    if (logger.isLevelEnabled?.('info') === false) return;
    logger.info('request', { requestId: exchange.requestId, method: 'POST', path: '/mcp', status, ms: Math.round(ms * 10) / 10, user: exchange.user.name });
  }

  #exchange(incoming: IncomingMessage, user: RegistryUser, started: number): Exchange {
    const offered = incoming.headers['x-request-id'];
    const requestId = typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : `${this.#idPrefix}-${(this.#nextId++).toString(36)}`;
    return { started, requestId, user };
  }
}

/** How a fast-path call ended: a result to answer (a failure the client should see is one too), or a JSON-RPC error. */
type CallOutcome = { kind: 'result'; value: CallToolResult; structured: boolean } | { kind: 'error'; error: { code: number; message: string; data?: unknown } };

/** The outcome of a call that threw: a call the client cancelled or walked away from is not answered; one aborted otherwise was the shutdown's. */
function outcomeOfFailure(error: unknown, signal: AbortSignal, tool: CatalogTool): CallOutcome {
  try {
    return { kind: 'result', value: callFailure(error, NEVER_ABORTED, signal, tool), structured: false };
  } catch (thrown) {
    return { kind: 'error', error: isProtocolErrorLike(thrown) ? jsonRpcErrorOf(thrown) : jsonRpcErrorOf(undefined) };
  }
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
}

/** The SDK refuses (406) a POST that does not accept both answers; the general path says so. */
function acceptsBoth(accept: string | undefined): boolean {
  return accept !== undefined && accept.includes('application/json') && accept.includes('text/event-stream');
}

/** The request as the Host/Origin check and the token check read it (only `headers.get`; no query token on /mcp). */
function headerView(incoming: IncomingMessage): Request {
  const view = { headers: { get: (name: string): string | null => (incoming.headers[name] as string | undefined) ?? null } };
  return view as unknown as Request;
}
