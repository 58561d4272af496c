/**
 * Set-up of the cluster-limits e2e test (issue 20): deploy/haproxy.cfg's backend pointed at given
 * ports, and a bare 2025-era MCP client over fetch that sends each request to the replica a test
 * names (a session opened on one replica, used on another) and reads a session's GET stream.
 */
import { waitFor } from './processes.js';
import { deployedBackend } from './cluster-test-bed.js';
import { readSseBlocks } from './sse-blocks.js';

export { deployedBackend };

/** A JSON-RPC message as read off the wire. */
export type RpcMessage = { id?: number; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown>; error?: { message: string } };

/** The JSON-RPC messages of an answer (JSON, or an SSE stream read to its end). */
async function messagesOf(response: Response): Promise<RpcMessage[]> {
  const text = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    return text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as RpcMessage);
  }
  return text === '' ? [] : [JSON.parse(text) as RpcMessage];
}

/** A 2025-era session spoken by hand, request by request, to whichever replica a call names. */
export class HandSession {
  id: string | undefined;
  #next = 1;
  readonly #token: string;
  readonly #streams: AbortController[] = [];

  constructor(token: string) {
    this.#token = token;
  }

  #headers(): Record<string, string> {
    return {
      authorization: `Bearer ${this.#token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
      ...(this.id === undefined ? {} : { 'mcp-session-id': this.id }),
    };
  }

  /** `initialize` and `notifications/initialized`, both on `base`. */
  async open(base: string): Promise<void> {
    const response = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: this.#headers(),
      body: JSON.stringify({ jsonrpc: '2.0', id: this.#next++, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hand', version: '1.0.0' } } }),
    });
    if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
    this.id = response.headers.get('mcp-session-id') ?? undefined;
    await response.text();
    await this.notify(base, 'notifications/initialized');
  }

  async notify(base: string, method: string): Promise<void> {
    const response = await fetch(`${base}/mcp`, { method: 'POST', headers: this.#headers(), body: JSON.stringify({ jsonrpc: '2.0', method }) });
    await response.text();
    if (response.status !== 202) throw new Error(`${method} answered ${response.status}`);
  }

  /** One request on `base`: every message of its answer (notifications first, the response last). */
  async request(base: string, method: string, params: Record<string, unknown> = {}): Promise<RpcMessage[]> {
    const response = await fetch(`${base}/mcp`, { method: 'POST', headers: this.#headers(), body: JSON.stringify({ jsonrpc: '2.0', id: this.#next++, method, params }) });
    if (response.status !== 200) throw new Error(`${method} on ${base} answered ${response.status}: ${await response.text()}`);
    const messages = await messagesOf(response);
    const answer = messages.at(-1);
    if (answer?.error !== undefined) throw new Error(`${method} on ${base} failed: ${answer.error.message}`);
    return messages;
  }

  /** Opens the session's GET stream on `base`; its messages collect in the returned array. */
  async listen(base: string): Promise<RpcMessage[]> {
    const controller = new AbortController();
    this.#streams.push(controller);
    const { 'content-type': _contentType, ...headers } = this.#headers();
    const response = await fetch(`${base}/mcp`, { headers: { ...headers, accept: 'text/event-stream' }, signal: controller.signal });
    if (response.status !== 200) throw new Error(`GET /mcp on ${base} answered ${response.status}`);
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('GET /mcp has no body');
    const seen: RpcMessage[] = [];
    void readSseBlocks(reader, (block) => {
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (data !== undefined) seen.push(JSON.parse(data) as RpcMessage);
    });
    return seen;
  }

  /** Waits until `seen` holds a message matching `match`. */
  static async heard(seen: readonly RpcMessage[], match: (message: RpcMessage) => boolean, what: string, timeoutMs = 5_000): Promise<RpcMessage> {
    await waitFor(() => seen.some(match), timeoutMs, what);
    return seen.find(match) as RpcMessage;
  }

  /** Ends the GET streams and the session (DELETE on `base`). */
  async close(base: string): Promise<void> {
    for (const controller of this.#streams.splice(0)) controller.abort();
    if (this.id !== undefined) await fetch(`${base}/mcp`, { method: 'DELETE', headers: this.#headers() }).then((response) => response.text()).catch(() => '');
  }
}
