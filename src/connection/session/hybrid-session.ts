/**
 * @module connection/session/hybrid-session
 * A 2025-era session whose handshake, server→client requests and notifications the SDK `Client`
 * runs, and whose requests go through the {@link LeanRequester} on the same transport (see its
 * module doc for why).
 */

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { SwitchboardError } from '../../errors.js';
import { LeanRequester } from '../lean-requester.js';
import type { TappedTransport } from '../tapped-transport.js';
import { mapRpcError } from './map-rpc-error.js';
import type { SessionRequestOptions, ToolCallParams } from './mcp-session.js';
import { SdkSession } from './sdk-session.js';

/** The SDK session, with requests on the lean path. */
export class HybridSession extends SdkSession {
  readonly #requester: LeanRequester;

  /** Built once the SDK session's handshake is done (and has negotiated a 2025-era version). */
  constructor(session: SdkSession, transport: TappedTransport, serverName: string) {
    super(session.client);
    this.#requester = new LeanRequester((message, lone) => transport.sendRequest(message, lone), serverName, (error, method) => mapRpcError(error, serverName, method));
  }

  override request(method: string, params: Record<string, unknown> | undefined, options: SessionRequestOptions): Promise<unknown> {
    return this.#requester.request(method, params, options);
  }

  override callTool(params: ToolCallParams, options: SessionRequestOptions): Promise<unknown> {
    return this.#requester.request('tools/call', params as unknown as Record<string, unknown>, options);
  }

  override intercept(message: JSONRPCMessage): boolean {
    return this.#requester.intercept(message);
  }

  override failRequests(error: SwitchboardError): void {
    this.#requester.close(error);
  }
}
