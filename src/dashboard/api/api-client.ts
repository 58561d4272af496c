/**
 * @module dashboard/api/api-client
 * Typed calls to the gateway's `/api`, authenticated with the signed-in token.
 */

import { createParser } from 'eventsource-parser';
import { isRecord } from '../model/is-record.js';
import { ApiError, parseErrorBody } from './api-error.js';
import type { ApprovalView, AppView, AuthorizedClientView, CallAnswer, CallProgress, LoginResponse, MeResponse, ServerChange, ServerResponse, ServersResponse, StatsResponse, TasksResponse, TemplatesResponse, ToolSearchView, ToolsResponse, EndpointView, GroupView, LimitView, RuleView } from '../../contract/api-contract.js';

export type { CallProgress, ServerChange };

/** Longest wait for an ordinary `/api` answer (tool calls have their own). @default 30000 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Longest wait for a tool call started from the dashboard. @default 300000 */
export const TOOL_CALL_TIMEOUT_MS = 300_000;

/** The gateway's `/api`, for one token. */
export class ApiClient {
  readonly #base: URL;
  readonly #token: string;
  readonly #onUnauthorized: (() => void) | undefined;

  /**
   * `base` is the dashboard's own URL: `/api` is resolved against its origin and path.
   * `onUnauthorized` is called when the gateway stops accepting the token (revoked, expired).
   */
  constructor(base: string, token: string, onUnauthorized?: () => void) {
    this.#base = new URL('./', base);
    this.#token = token;
    this.#onUnauthorized = onUnauthorized;
  }

  /** The URL of the event stream; `EventSource` cannot send headers, so the token rides in the query. */
  eventsUrl(): string {
    const url = new URL('api/events', this.#base);
    url.searchParams.set('token', this.#token);
    return url.href;
  }

  me(): Promise<MeResponse> {
    return this.#request('GET', 'api/me');
  }

  servers(): Promise<ServersResponse> {
    return this.#request('GET', 'api/servers');
  }

  addServer(name: string, entry: Record<string, unknown>, enabled = true): Promise<ServerResponse> {
    return this.#request('POST', 'api/servers', { name, entry, enabled });
  }

  updateServer(name: string, change: ServerChange): Promise<ServerResponse> {
    return this.#request('PATCH', `api/servers/${encodeURIComponent(name)}`, change);
  }

  /** The templates an administrator defined (what a tenant may run as a local command). */
  templates(): Promise<TemplatesResponse> {
    return this.#request('GET', 'api/templates');
  }

  /** Starts an OAuth login of the signed-in user to a remote server (open `authorizationUrl`). */
  logIn(name: string): Promise<LoginResponse> {
    return this.#request('POST', `api/servers/${encodeURIComponent(name)}/login`);
  }

  /** The clients the signed-in user authorized over OAuth (an admin: everyone's, with `all`). */
  authorizedClients(all = false): Promise<{ clients: AuthorizedClientView[] }> {
    return this.#request('GET', `api/oauth/clients${all ? '?all=true' : ''}`);
  }

  /** Revokes an authorized client: its access and refresh tokens stop at once. */
  revokeClient(grantId: string): Promise<void> {
    return this.#request('DELETE', `api/oauth/clients/${encodeURIComponent(grantId)}`);
  }

  removeServer(name: string): Promise<void> {
    return this.#request('DELETE', `api/servers/${encodeURIComponent(name)}`);
  }

  tools(): Promise<ToolsResponse> {
    return this.#request('GET', 'api/tools');
  }

  /** The catalog's tool search (the index agents search): best matches first. */
  searchTools(query: string, options: { server?: string; limit?: number; signal?: AbortSignal } = {}): Promise<ToolsResponse> {
    const params = new URLSearchParams({ q: query, limit: String(options.limit ?? 200) });
    if (options.server !== undefined && options.server !== '') params.set('server', options.server);
    return this.#request('GET', `api/tools?${params.toString()}`, undefined, { signal: options.signal });
  }

  /** The signed-in user's tool-search setting for /mcp. */
  toolSearch(): Promise<ToolSearchView> {
    return this.#request('GET', 'api/tool-search');
  }

  setToolSearch(mode: ToolSearchView['toolSearch']['mode']): Promise<ToolSearchView> {
    return this.#request('PUT', 'api/tool-search', { mode });
  }

  /** The tasks the user's servers are running. */
  tasks(): Promise<TasksResponse> {
    return this.#request('GET', 'api/tasks');
  }

  /** The HTML of a tool's MCP App. */
  toolApp(name: string): Promise<AppView> {
    return this.#request('GET', `api/tools/${encodeURIComponent(name)}/app`);
  }

  /**
   * Calls a tool. With `onProgress`, asks for the call as a stream of Server-Sent Events and reports
   * each `progress` event until the `result` (or `error`) arrives.
   */
  async callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal, onProgress?: (progress: CallProgress) => void): Promise<CallAnswer> {
    const path = `api/tools/${encodeURIComponent(name)}/call`;
    if (onProgress === undefined) return this.#request('POST', path, { arguments: args }, { signal, timeoutMs: TOOL_CALL_TIMEOUT_MS });
    const response = await this.#fetch('POST', path, { arguments: args }, { signal, timeoutMs: TOOL_CALL_TIMEOUT_MS, accept: 'text/event-stream, application/json' });
    // An unknown tool (and any refusal before the call starts) is a plain JSON answer.
    if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || response.body === null) return this.#answer(response);
    return readCallStream(response.body, onProgress);
  }

  stats(): Promise<StatsResponse> {
    return this.#request('GET', 'api/stats');
  }

  // Access control (issue 21): endpoints, groups, rules, limits, approvals.
  endpoints(): Promise<{ everything: boolean; endpoints: EndpointView[] }> {
    return this.#request('GET', 'api/endpoints');
  }

  putEndpoint(name: string, definition: Record<string, unknown>): Promise<{ endpoint: EndpointView }> {
    return this.#request('PUT', `api/endpoints/${encodeURIComponent(name)}`, definition);
  }

  removeEndpoint(name: string): Promise<void> {
    return this.#request('DELETE', `api/endpoints/${encodeURIComponent(name)}`);
  }

  setEverything(on: boolean): Promise<{ on: boolean }> {
    return this.#request('PUT', 'api/settings/everything', { on });
  }

  groups(): Promise<{ groups: GroupView[] }> {
    return this.#request('GET', 'api/groups');
  }

  addGroup(name: string, members: readonly string[]): Promise<{ group: GroupView }> {
    return this.#request('POST', 'api/groups', { name, members });
  }

  removeGroup(name: string): Promise<void> {
    return this.#request('DELETE', `api/groups/${encodeURIComponent(name)}`);
  }

  rules(): Promise<{ rules: RuleView[] }> {
    return this.#request('GET', 'api/rules');
  }

  addRule(rule: Omit<RuleView, 'id'>): Promise<{ rule: RuleView }> {
    return this.#request('POST', 'api/rules', rule);
  }

  removeRule(id: string): Promise<void> {
    return this.#request('DELETE', `api/rules/${encodeURIComponent(id)}`);
  }

  limits(): Promise<{ limits: LimitView[] }> {
    return this.#request('GET', 'api/limits');
  }

  addLimit(limit: Omit<LimitView, 'id'>): Promise<{ limit: LimitView }> {
    return this.#request('POST', 'api/limits', limit);
  }

  removeLimit(id: string): Promise<void> {
    return this.#request('DELETE', `api/limits/${encodeURIComponent(id)}`);
  }

  approvals(): Promise<{ approvals: ApprovalView[] }> {
    return this.#request('GET', 'api/approvals');
  }

  decideApproval(id: string, approve: boolean): Promise<{ decided: string }> {
    return this.#request('POST', `api/approvals/${encodeURIComponent(id)}`, { approve });
  }

  async #request<T>(method: string, path: string, body?: unknown, options: { signal?: AbortSignal | undefined; timeoutMs?: number } = {}): Promise<T> {
    return this.#answer<T>(await this.#fetch(method, path, body, options));
  }

  async #fetch(method: string, path: string, body: unknown, options: { signal?: AbortSignal | undefined; timeoutMs?: number; accept?: string }): Promise<Response> {
    const signals = [AbortSignal.timeout(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS)];
    if (options.signal !== undefined) signals.push(options.signal);
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}`, accept: options.accept ?? 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    try {
      return await fetch(new URL(path, this.#base), {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.any(signals),
        cache: 'no-store',
      });
    } catch (error) {
      throw transportError(error);
    }
  }

  async #answer<T>(response: Response): Promise<T> {
    // 204 answers only DELETE, whose typed wrapper returns void.
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (response.status === 401) this.#onUnauthorized?.();
    if (!response.ok) throw new ApiError(response.status, parseErrorBody(response.status, parsed));
    // The gateway is ours and answers the documented shapes; the pages read them defensively anyway.
    return parsed as T;
  }
}

/** Reads a streamed call to its `result` or `error` event. */
async function readCallStream(body: ReadableStream<Uint8Array>, onProgress: (progress: CallProgress) => void): Promise<CallAnswer> {
  let outcome: { answer: CallAnswer } | { error: ApiError } | undefined;
  const parser = createParser({
    onEvent: (event) => {
      let data: unknown;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (!isRecord(data)) return;
      if (event.event === 'progress' && typeof data.progress === 'number') {
        onProgress({ progress: data.progress, ...(typeof data.total === 'number' ? { total: data.total } : {}), ...(typeof data.message === 'string' ? { message: data.message } : {}) });
      } else if (event.event === 'result') {
        outcome = { answer: data as unknown as CallAnswer };
      } else if (event.event === 'error') {
        const status = typeof data.status === 'number' ? data.status : 500;
        outcome = { error: new ApiError(status, parseErrorBody(status, data)) };
      }
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    while (outcome === undefined) {
      const chunk = await reader.read();
      if (chunk.done) break;
      parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
  } catch (error) {
    throw transportError(error);
  } finally {
    reader.releaseLock();
  }
  if (outcome === undefined) throw new ApiError(0, { code: 'GATEWAY_UNREACHABLE', message: 'the gateway ended the call without an answer', hint: 'is `switchboard serve` still running?' });
  if ('error' in outcome) throw outcome.error;
  return outcome.answer;
}

/** A fetch that failed before any answer: timed out, cancelled, or the gateway is not there. */
function transportError(error: unknown): ApiError {
  const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
  const cancelled = error instanceof DOMException && error.name === 'AbortError';
  return new ApiError(0, {
    code: timedOut ? 'REQUEST_TIMEOUT' : cancelled ? 'REQUEST_CANCELLED' : 'GATEWAY_UNREACHABLE',
    message: timedOut ? 'the gateway did not answer in time' : cancelled ? 'cancelled' : 'the gateway cannot be reached',
    ...(timedOut || cancelled ? {} : { hint: 'is `switchboard serve` still running?' }),
  });
}
