/**
 * @module connection/lean-client
 * The 2025-era session without the SDK: the `initialize` → `notifications/initialized` handshake
 * (the same sequence as the SDK's legacy connect), then the inbound half of the session — responses
 * and progress go to the {@link LeanRequester}, server→client `ping` is answered, other server
 * requests get "Method not found" (as from an SDK client with no handler for them), notifications are
 * handed to the owner.
 *
 * Used for stdio servers in legacy mode when no server→client handlers (elicitation, sampling, roots)
 * are configured: then nothing of the SDK is needed at run time, which saves its ~140 ms import and
 * ~20 MiB per process. Everything else goes through the SDK `Client`.
 */

import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { SwitchboardError } from '../errors.js';
import { closedError } from './connection-errors.js';
import { LeanRequester, type RpcErrorPayload, type SendMessage } from './lean-requester.js';

/**
 * The 2025-era protocol versions, newest first: what the SDK v2 offers and accepts in its legacy
 * handshake (`SUPPORTED_PROTOCOL_VERSIONS`; a test keeps the two equal).
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

const METHOD_NOT_FOUND = -32601;

/** Options of a {@link LeanClient}. */
export interface LeanClientOptions {
  clientInfo: { name: string; version: string };
  capabilities: Record<string, unknown>;
  serverName: string;
  /** Writes a message; defaults to the transport's `send`. */
  send?: SendMessage;
  /** Turns a JSON-RPC error response into the error its request rejects with. */
  onRpcError: (error: RpcErrorPayload, method: string) => unknown;
  /** Every notification from the server other than progress and cancellation. */
  onNotification: (method: string, params: Record<string, unknown>) => void;
  /** Protocol problems that have no request to fail (e.g. a response nobody asked for). */
  onError?: (error: Error) => void;
}

interface InitializeResult {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: { name: string; version: string; [key: string]: unknown };
  instructions?: string;
}

/** A 2025-era MCP session on a transport, SDK-free. Method names match the SDK `Client`'s. */
export class LeanClient {
  /** Sends requests and settles them from responses; shared with the owner's per-call path. */
  readonly requester: LeanRequester;
  readonly #options: LeanClientOptions;
  #transport: Transport | undefined;
  #result: InitializeResult | undefined;

  constructor(options: LeanClientOptions) {
    this.#options = options;
    const send = options.send ?? ((message: JSONRPCMessage) => this.#requireTransport().send(message));
    this.requester = new LeanRequester(send, options.serverName, options.onRpcError);
  }

  /**
   * Starts the transport and performs the handshake. Rejects (and closes the transport) when the
   * server answers with an error, an invalid result or a protocol version this client cannot speak.
   */
  async connect(transport: Transport, options: { signal?: AbortSignal; timeout: number }): Promise<void> {
    this.#transport = transport;
    transport.onmessage = (message) => this.#onMessage(message);
    transport.onerror = (error) => this.#options.onError?.(error);
    transport.onclose = () => this.requester.close(this.#closedError());
    try {
      await transport.start();
      const raw = await this.requester.request(
        'initialize',
        { protocolVersion: LEGACY_PROTOCOL_VERSIONS[0], capabilities: this.#options.capabilities, clientInfo: this.#options.clientInfo },
        { timeoutMs: options.timeout, ...(options.signal === undefined ? {} : { signal: options.signal }) },
      );
      const result = parseInitializeResult(raw);
      // The SDK's wording, which toSwitchboardError recognises.
      if (!LEGACY_PROTOCOL_VERSIONS.includes(result.protocolVersion)) throw new Error(`Server's protocol version is not supported: ${result.protocolVersion}`);
      transport.setProtocolVersion?.(result.protocolVersion);
      this.#result = result;
      await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
    } catch (error) {
      this.#result = undefined;
      await this.close().catch(() => {});
      throw error;
    }
  }

  getNegotiatedProtocolVersion(): string | undefined {
    return this.#result?.protocolVersion;
  }

  getProtocolEra(): 'legacy' | undefined {
    return this.#result === undefined ? undefined : 'legacy';
  }

  getServerVersion(): InitializeResult['serverInfo'] | undefined {
    return this.#result?.serverInfo;
  }

  getServerCapabilities(): Record<string, unknown> | undefined {
    return this.#result?.capabilities;
  }

  getInstructions(): string | undefined {
    return this.#result?.instructions;
  }

  /** Closes the transport; requests in flight are rejected when it reports the close. */
  async close(): Promise<void> {
    await this.#transport?.close();
  }

  #requireTransport(): Transport {
    if (this.#transport === undefined) throw this.#closedError();
    return this.#transport;
  }

  #onMessage(message: JSONRPCMessage): void {
    if (this.requester.intercept(message)) return;
    const record = message as { id?: unknown; method?: unknown; params?: unknown };
    if (typeof record.method === 'string') {
      if (record.id !== undefined) this.#answerRequest(record.id, record.method);
      else if (record.method !== 'notifications/cancelled' && record.method !== 'notifications/progress') {
        const params = typeof record.params === 'object' && record.params !== null ? (record.params as Record<string, unknown>) : {};
        this.#options.onNotification(record.method, params);
      }
      return;
    }
    if (record.id !== undefined) this.#options.onError?.(new Error(`Received a response for an unknown message ID: ${JSON.stringify(record.id)}`));
  }

  #answerRequest(id: unknown, method: string): void {
    const response =
      method === 'ping' ? { jsonrpc: '2.0', id, result: {} } : { jsonrpc: '2.0', id, error: { code: METHOD_NOT_FOUND, message: 'Method not found' } };
    this.#transport?.send(response as JSONRPCMessage).catch((error: unknown) => this.#options.onError?.(error instanceof Error ? error : new Error(String(error))));
  }

  #closedError(): SwitchboardError {
    return closedError(this.#options.serverName);
  }
}

/** Checks an `initialize` result by hand (the SDK checks it with zod). */
function parseInitializeResult(raw: unknown): InitializeResult {
  const fail = (reason: string): never => {
    throw new Error(`Server sent invalid initialize result: ${reason}`);
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('not an object');
  const record = raw as Record<string, unknown>;
  if (typeof record.protocolVersion !== 'string') return fail('`protocolVersion` is not a string');
  const capabilities = record.capabilities;
  if (typeof capabilities !== 'object' || capabilities === null || Array.isArray(capabilities)) return fail('`capabilities` is not an object');
  const serverInfo = record.serverInfo;
  if (typeof serverInfo !== 'object' || serverInfo === null) return fail('`serverInfo` is not an object');
  const info = serverInfo as Record<string, unknown>;
  if (typeof info.name !== 'string' || typeof info.version !== 'string') return fail('`serverInfo` needs string `name` and `version`');
  return {
    protocolVersion: record.protocolVersion,
    capabilities: capabilities as Record<string, unknown>,
    serverInfo: info as InitializeResult['serverInfo'],
    ...(typeof record.instructions === 'string' ? { instructions: record.instructions } : {}),
  };
}
