/**
 * @module dashboard/api/api-client
 * Typed calls to the gateway's `/api`, authenticated with the signed-in token.
 */

import { ApiError, parseErrorBody } from './api-error.js';
import type { ApiUser, CallAnswer, ClientStats, ServerView, TemplateView, ToolView } from './api-types.js';

/** Longest wait for an ordinary `/api` answer (tool calls have their own). @default 30000 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** Longest wait for a tool call started from the dashboard. @default 300000 */
export const TOOL_CALL_TIMEOUT_MS = 300_000;

/** The body of `POST /api/servers` and `PATCH /api/servers/:name`. */
export interface ServerChange {
  entry?: Record<string, unknown>;
  enabled?: boolean;
}

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

  me(): Promise<{ user: ApiUser }> {
    return this.#request('GET', 'api/me');
  }

  servers(): Promise<{ servers: ServerView[] }> {
    return this.#request('GET', 'api/servers');
  }

  addServer(name: string, entry: Record<string, unknown>, enabled = true): Promise<{ server: ServerView }> {
    return this.#request('POST', 'api/servers', { name, entry, enabled });
  }

  updateServer(name: string, change: ServerChange): Promise<{ server: ServerView }> {
    return this.#request('PATCH', `api/servers/${encodeURIComponent(name)}`, change);
  }

  /** The templates an administrator defined (what a tenant may run as a local command). */
  templates(): Promise<{ templates: TemplateView[] }> {
    return this.#request('GET', 'api/templates');
  }

  removeServer(name: string): Promise<void> {
    return this.#request('DELETE', `api/servers/${encodeURIComponent(name)}`);
  }

  tools(): Promise<{ tools: ToolView[]; version: number }> {
    return this.#request('GET', 'api/tools');
  }

  callTool(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallAnswer> {
    return this.#request('POST', `api/tools/${encodeURIComponent(name)}/call`, { arguments: args }, { signal, timeoutMs: TOOL_CALL_TIMEOUT_MS });
  }

  stats(): Promise<ClientStats> {
    return this.#request('GET', 'api/stats');
  }

  async #request<T>(method: string, path: string, body?: unknown, options: { signal?: AbortSignal | undefined; timeoutMs?: number } = {}): Promise<T> {
    const signals = [AbortSignal.timeout(options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS)];
    if (options.signal !== undefined) signals.push(options.signal);
    const headers: Record<string, string> = { authorization: `Bearer ${this.#token}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(new URL(path, this.#base), {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal: AbortSignal.any(signals),
        cache: 'no-store',
      });
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      const cancelled = error instanceof DOMException && error.name === 'AbortError';
      throw new ApiError(0, {
        code: timedOut ? 'REQUEST_TIMEOUT' : cancelled ? 'REQUEST_CANCELLED' : 'GATEWAY_UNREACHABLE',
        message: timedOut ? 'the gateway did not answer in time' : cancelled ? 'cancelled' : 'the gateway cannot be reached',
        ...(timedOut || cancelled ? {} : { hint: 'is `switchboard serve` still running?' }),
      });
    }
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
