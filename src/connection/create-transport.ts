/**
 * @module connection/create-transport
 * One factory from a {@link ServerSpec} to an SDK `Transport`: our stdio process transport, the SDK's
 * Streamable HTTP transport, or its legacy SSE transport.
 */

import type { AuthProvider, FetchLike, OAuthClientProvider, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { HttpServerSpec, StdioServerSpec } from '../config/server-spec.js';
import { isDebugEnabled, type Logger } from '../logger.js';
import { loadClientSdk } from './client-sdk.js';
import { limitedFetch } from './limited-fetch.js';
import { redactHeaders } from './redact.js';
import { StdioProcessTransport } from './stdio-process-transport.js';

/** The wire a connection uses. */
export type TransportKind = 'stdio' | 'http' | 'sse';

/** What the HTTP transports may be given besides the spec. */
export interface HttpTransportOptions {
  logger: Logger;
  /** A fetch to use instead of the global one (e.g. one that pins resolved addresses). */
  fetch?: FetchLike;
  /** Bearer tokens or an OAuth client for servers that require authorization. */
  authProvider?: AuthProvider | OAuthClientProvider;
  /** A legacy SSE transport's stream was cut at the bound (see limited-fetch): its answers are lost with it. */
  onStreamCut?: (what: string) => void;
}

/** Creates the stdio transport of a spec. */
export function createStdioTransport(spec: StdioServerSpec, logger: Logger, onStderrLine?: (line: string) => void): StdioProcessTransport {
  return new StdioProcessTransport({
    command: spec.command,
    args: spec.args,
    env: spec.env,
    inheritEnv: spec.inheritEnv,
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
    serverName: spec.name,
    logger,
    ...(onStderrLine === undefined ? {} : { onStderrLine }),
  });
}

/** Creates a Streamable HTTP or legacy SSE transport for a spec (loading the SDK on first use). */
export async function createHttpTransport(kind: 'http' | 'sse', spec: HttpServerSpec, options: HttpTransportOptions): Promise<StreamableHTTPClientTransport | SSEClientTransport> {
  const { SSEClientTransport, StreamableHTTPClientTransport } = await loadClientSdk();
  const url = new URL(spec.url);
  // Only the legacy transport's one stream carries every answer; a Streamable HTTP GET stream does not.
  const fetch = limitedFetch(tracingFetch(options.fetch ?? globalThis.fetch, spec.name, options.logger), spec.name, kind === 'sse' && options.onStreamCut !== undefined ? { onStreamCut: options.onStreamCut } : {});
  const common = {
    requestInit: { headers: { ...spec.headers } },
    fetch,
    ...(options.authProvider === undefined ? {} : { authProvider: options.authProvider }),
  };
  if (kind === 'sse') {
    return new SSEClientTransport(url, {
      ...common,
      // The GET that opens the stream needs the configured headers too (e.g. an API key).
      eventSourceInit: { fetch: (input, init) => fetch(input, { ...init, headers: { ...spec.headers, ...headersOf(init?.headers) } }) },
    });
  }
  return new StreamableHTTPClientTransport(url, common);
}

/** Wraps fetch to log each HTTP exchange at debug, with Authorization and other secrets redacted. */
function tracingFetch(fetch: FetchLike, server: string, logger: Logger): FetchLike {
  if (!isDebugEnabled(logger)) return fetch;
  return async (input, init) => {
    const started = performance.now();
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : String((input as { url?: unknown }).url);
    const method = init?.method ?? 'GET';
    logger.debug('http request', { server, method, url, headers: redactHeaders(headersOf(init?.headers)) });
    try {
      const response = await fetch(input, init);
      logger.debug('http response', { server, method, url, status: response.status, ms: Math.round(performance.now() - started) });
      return response;
    } catch (error) {
      logger.debug('http request failed', { server, method, url, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  };
}

function headersOf(headers: RequestInit['headers'] | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  return { ...(headers as Record<string, string>) };
}
