/**
 * @module auth/loopback-redirect-server
 * The redirect target of a login on this machine (RFC 8252 §7.3): an HTTP server on 127.0.0.1 only,
 * on a random port unless one is configured, that waits for one `GET /callback`, shows the person a
 * short page, and hands the query to the login. It answers nothing else and closes after use.
 */

import { createServer, type Server } from 'node:http';
import { ErrorCode, SwitchboardError } from '../errors.js';

/** The path the authorization server redirects to. */
export const CALLBACK_PATH = '/callback';

const PAGE_DONE = '<!doctype html><meta charset="utf-8"><title>mcp-switchboard</title><p>Authorization received. You can close this tab and return to the terminal.</p>';
const PAGE_ERROR = '<!doctype html><meta charset="utf-8"><title>mcp-switchboard</title><p>The authorization did not complete. Return to the terminal for details.</p>';

/** A listening loopback server; {@link close} it when the login ends, whatever happened. */
export interface LoopbackRedirectServer {
  /** `http://127.0.0.1:PORT/callback` */
  readonly redirectUrl: string;
  /** Resolves with the query of the first callback; rejects when `signal` aborts. */
  waitForCallback(signal?: AbortSignal): Promise<URLSearchParams>;
  close(): Promise<void>;
}

/** Starts the redirect server on 127.0.0.1 (`port` 0: any free port). */
export async function startLoopbackRedirectServer(port = 0): Promise<LoopbackRedirectServer> {
  let resolveCallback: ((params: URLSearchParams) => void) | undefined;
  let received: URLSearchParams | undefined;
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== CALLBACK_PATH || received !== undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    received = url.searchParams;
    const ok = url.searchParams.has('code') && !url.searchParams.has('error');
    response.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', connection: 'close' }).end(ok ? PAGE_DONE : PAGE_ERROR);
    resolveCallback?.(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new SwitchboardError(ErrorCode.InvalidArgument, `cannot listen on 127.0.0.1:${port} for the login redirect (${error.code ?? error.message})`, {
          cause: error,
          hint: port === 0 ? undefined : 'another program uses `oauth.redirectPort`; stop it or change the port',
        }),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  let closing: Promise<void> | undefined;
  return {
    redirectUrl: `http://127.0.0.1:${boundPort}${CALLBACK_PATH}`,
    waitForCallback(signal?: AbortSignal): Promise<URLSearchParams> {
      if (received !== undefined) return Promise.resolve(received);
      return new Promise<URLSearchParams>((resolve, reject) => {
        const onAbort = (): void => reject(signal?.reason ?? new Error('aborted'));
        if (signal?.aborted === true) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        resolveCallback = (params) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(params);
        };
      });
    },
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
