/**
 * @module connection/session/handshake
 * Runs a session's handshake until it ends or `signal` aborts (whichever first: an SDK handshake
 * does not always stop at the signal), then picks the per-call path: a 2025-era SDK session sends
 * its requests on the lean path unless `leanRequests` is off.
 */

import type { TappedTransport } from '../tapped-transport.js';
import { HybridSession } from './hybrid-session.js';
import type { McpSession } from './mcp-session.js';
import { SdkSession } from './sdk-session.js';

/** Options of {@link handshake}. */
export interface HandshakeOptions {
  signal: AbortSignal;
  timeoutMs: number;
  serverName: string;
  /** @default true */
  leanRequests: boolean | undefined;
}

/** Connects `session` on `transport`; resolves with the session to use from now on. */
export async function handshake(session: McpSession, transport: TappedTransport, options: HandshakeOptions): Promise<McpSession> {
  const { signal } = options;
  signal.throwIfAborted();
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => {});
  await Promise.race([session.connect(transport, { signal, timeoutMs: options.timeoutMs }), aborted]);
  if (session instanceof SdkSession && session.protocolEra === 'legacy' && options.leanRequests !== false) return new HybridSession(session, transport, options.serverName);
  return session;
}
