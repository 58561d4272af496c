/**
 * @module connection/session/sdk-session
 * The session run by the SDK `Client`: its handshake (every protocol era), server→client requests,
 * notifications, and — on this session — every request too. 2026-07-28 sessions always run here.
 */

import type { Client, JSONRPCMessage } from '@modelcontextprotocol/client';
import type { SwitchboardError } from '../../errors.js';
import type { ServerInfo } from '../mcp-types.js';
import type { TappedTransport } from '../tapped-transport.js';
import type { McpSession, SessionRequestOptions, ToolCallParams } from './mcp-session.js';

/** The SDK's request options for ours. */
function sdkOptions(options: SessionRequestOptions): { timeout: number; resetTimeoutOnProgress: true; signal?: AbortSignal; onprogress?: SessionRequestOptions['onProgress'] } {
  return {
    timeout: options.timeoutMs,
    resetTimeoutOnProgress: true,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onProgress === undefined ? {} : { onprogress: options.onProgress }),
  };
}

/** A session on the SDK `Client`. */
export class SdkSession implements McpSession {
  readonly client: Client;

  constructor(client: Client) {
    this.client = client;
  }

  connect(transport: TappedTransport, options: { signal: AbortSignal; timeoutMs: number }): Promise<void> {
    return this.client.connect(transport, { signal: options.signal, timeout: options.timeoutMs });
  }

  get protocolVersion(): string | undefined {
    return this.client.getNegotiatedProtocolVersion();
  }

  get protocolEra(): 'legacy' | 'modern' | undefined {
    return this.client.getProtocolEra();
  }

  get serverInfo(): ServerInfo | undefined {
    return this.client.getServerVersion() as ServerInfo | undefined;
  }

  get capabilities(): Record<string, unknown> | undefined {
    return this.client.getServerCapabilities() as Record<string, unknown> | undefined;
  }

  get instructions(): string | undefined {
    return this.client.getInstructions();
  }

  request(method: string, params: Record<string, unknown> | undefined, options: SessionRequestOptions): Promise<unknown> {
    return this.client.request({ method, ...(params === undefined ? {} : { params }) } as never, sdkOptions(options));
  }

  callTool(params: ToolCallParams, options: SessionRequestOptions): Promise<unknown> {
    return this.client.callTool(params, sdkOptions(options));
  }

  /**
   * A 2026-07-28 session lists tools through the SDK's own `listTools`: it drops tools whose
   * `x-mcp-header` declarations are invalid (SEP-2243) and keeps the definitions `callTool` needs to
   * mirror those arguments into `Mcp-Param-*` headers (and to check structured output).
   * `cacheMode: 'refresh'`: every listing still asks the server, as on other sessions.
   */
  ownToolList(options: SessionRequestOptions): Promise<unknown[]> | undefined {
    if (this.protocolEra !== 'modern') return undefined;
    return this.client
      .listTools(undefined, { cacheMode: 'refresh', timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) })
      .then((result) => result.tools);
  }

  intercept(_message: JSONRPCMessage): boolean {
    return false;
  }

  failRequests(_error: SwitchboardError): void {
    // The SDK rejects its own requests when the transport closes.
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
