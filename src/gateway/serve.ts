/**
 * @module gateway/serve
 * Runs the gateway on a socket: opens the registry (unless given one), makes sure an administrator
 * and its token exist, builds the app and listens (127.0.0.1:7410 by default). `close()` shuts down
 * gracefully: stop accepting connections, let running calls finish within the deadline (then cancel
 * them), end sessions and streams, close every upstream (no server process outlives it), close the
 * registry if it was opened here.
 *
 * @example
 * ```ts
 * const running = await startGateway({ db: '.switchboard/switchboard.db', sharedConfig: config, port: 0 });
 * console.log(running.url); // http://127.0.0.1:54321
 * await running.close();
 * ```
 */

import { Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { redactingLogger } from '../util/redacting-logger.js';
import { noopLogger } from '../logger.js';
import { ServerRegistry } from '../registry/index.js';
import { createGatewayApp } from './app.js';
import { bootstrapAdmin, type AdminBootstrap, type AdminBootstrapOptions } from './bootstrap-admin.js';
import { Gateway, type GatewayOptions } from './gateway.js';
import { DEFAULT_HOST, DEFAULT_PORT, DEFAULT_SHUTDOWN_DEADLINE_MS, LOOPBACK_HOSTNAMES } from './gateway-defaults.js';
import { FastMcpPath } from './fast-mcp-path.js';
import { hostnameOf } from './host-check.js';
import { resolveHttpServerLimits, type HttpServerLimits } from './http-server-limits.js';
import { OAuthServer, type OAuthServerOptions } from './oauth-server/oauth-server.js';
import { ExternalResource } from './oauth-server/external-resource.js';
import type { ExternalAuthorizationConfig } from '../config/server-spec.js';

/** Options of {@link startGateway}. */
export interface StartGatewayOptions extends Omit<GatewayOptions, 'registry'>, HttpServerLimits {
  /** An open registry (the caller closes it). Without one, `db` is opened and closed with the gateway. */
  registry?: ServerRegistry;
  /** The registry database (file path or `postgres://` URL). @default $SWITCHBOARD_DB, else ./.switchboard/switchboard.db */
  db?: string;
  /** @default DEFAULT_HOST */
  host?: string;
  /** 0 picks a free port. @default DEFAULT_PORT */
  port?: number;
  /** Create the administrator and its token on first start. */
  bootstrap?: AdminBootstrapOptions;
  /** How long a graceful shutdown waits for running calls. @default DEFAULT_SHUTDOWN_DEADLINE_MS */
  shutdownDeadlineMs?: number;
  /** Aborting it during a shutdown stops waiting for running calls (they are cancelled). */
  hurry?: AbortSignal;
  /**
   * The gateway's own OAuth authorization server for its MCP clients (issue 18); `false` turns it off
   * (static API tokens only). `issuer` is the gateway's public URL. @default on, issuer = the listening URL
   */
  /**
   * Where the other replicas of a cluster reach this one (the replica-to-replica hop, issue 20), e.g.
   * `http://10.0.0.5:7410`. @default the listening URL (127.0.0.1 for a wildcard host: replicas on one machine)
   */
  replicaUrl?: string;
  oauth?: (Omit<OAuthServerOptions, 'issuer' | 'logger'> & { issuer?: string; external?: ExternalAuthorizationConfig }) | false;
}

/** A gateway listening on a socket. */
export interface RunningGateway {
  /** The base URL (`http://127.0.0.1:7410`); the MCP endpoint is `${url}/mcp`. */
  url: string;
  host: string;
  port: number;
  gateway: Gateway;
  /** What the first-start bootstrap found or did, when asked for. */
  admin?: AdminBootstrap;
  /** Graceful shutdown (idempotent). */
  close(options?: { deadlineMs?: number }): Promise<void>;
}

/** Starts the gateway and resolves once it listens. */
export async function startGateway(options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const logger = redactingLogger(options.logger ?? noopLogger);
  const host = options.host ?? DEFAULT_HOST;
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new SwitchboardError(ErrorCode.InvalidArgument, `the port must be a whole number from 0 to 65535, got ${String(options.port)}`);
  // Checked before anything opens, so a bad limit fails the start at once.
  const limits = resolveHttpServerLimits(options);
  const replicaUrl = options.replicaUrl === undefined ? undefined : checkedReplicaUrl(options.replicaUrl);
  const ownsRegistry = options.registry === undefined;
  const registry = options.registry ?? (await ServerRegistry.open({ ...(options.db === undefined ? {} : { db: options.db }), logger }));
  let gateway: Gateway | undefined;
  try {
    const admin = options.bootstrap === undefined ? undefined : await bootstrapAdmin(registry, options.bootstrap);
    const allowedHosts = [...(options.allowedHosts ?? [])];
    if (!isWildcard(host) && !isLoopback(host)) allowedHosts.push(hostnameOf(host));
    // The other replicas address this one by its replica URL (the hop): that host is one of its own.
    if (replicaUrl !== undefined) allowedHosts.push(new URL(replicaUrl).hostname);
    // The public URL's own pages (sign-in, consent, the dashboard) post from its origin, also through a
    // proxy that sends the gateway its internal address as Host.
    const publicUrl = options.oauth === false ? undefined : options.oauth?.issuer;
    // An issuer that is not a URL is refused with its reason when the OAuth server starts, below.
    const allowedOrigins = [...(options.allowedOrigins ?? []), ...(publicUrl === undefined || !URL.canParse(publicUrl) ? [] : [new URL(publicUrl).origin])];
    gateway = await Gateway.create({ ...options, registry, allowedHosts, allowedOrigins, logger });
    const app = createGatewayApp(gateway);
    // HTTP/1.0 probes (HAProxy's default health check) send no Host; without a default hostname the
    // adapter answers them 400 before the app runs. The Host check still refuses them off the probes.
    const server = createAdaptorServer({ fetch: app.fetch, serverOptions: limits.serverOptions, hostname: urlHost(isWildcard(host) ? '127.0.0.1' : host) });
    if (!(server instanceof HttpServer)) throw new SwitchboardError(ErrorCode.Internal, 'the HTTP server is not an HTTP/1 server');
    server.maxConnections = limits.maxConnections;
    // The hot /mcp methods are answered before the app (see fast-mcp-path); the rest goes to it.
    const fast = new FastMcpPath(gateway);
    const appListener = server.listeners('request')[0] as (incoming: IncomingMessage, outgoing: ServerResponse) => void;
    server.removeAllListeners('request');
    server.on('request', (incoming: IncomingMessage, outgoing: ServerResponse) => fast.serve(incoming, outgoing, () => appListener(incoming, outgoing)));
    const counted = gateway;
    server.on('drop', () => counted.refusals.count('maxConnections'));
    const address = await listen(server, host, port);
    const url = `http://${urlHost(isWildcard(host) ? '127.0.0.1' : host)}:${address.port}`;
    if (options.oauth !== false) {
      const { issuer, external, ...oauth } = options.oauth ?? {};
      try {
        // An external authorization server replaces the gateway's own (the gateway is then a resource server only).
        gateway.useOAuth(external === undefined ? await OAuthServer.create(registry, { ...oauth, issuer: issuer ?? url, logger }) : await ExternalResource.create(registry, external, issuer ?? url, logger));
      } catch (error) {
        await new Promise<void>((resolve) => server.close(() => resolve()));
        throw error;
      }
    }
    if (isWildcard(host)) {
      logger.warn('listening on every interface: clients elsewhere must use a name given with --allowed-host', { host });
    }
    // In the cluster of every gateway on this database from now on (a replica that cannot write its row does not start).
    await gateway.replica.start(replicaUrl ?? url);
    logger.info('gateway listening', { url, registry: registry.label, replica: gateway.replica.id });
    const running = gateway;
    let closing: Promise<void> | undefined;
    return {
      url,
      host,
      port: address.port,
      gateway: running,
      ...(admin === undefined ? {} : { admin }),
      close: (closeOptions = {}) => {
        closing ??= (async () => {
          logger.info('shutting down');
          const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          try {
            await running.close({ deadlineMs: closeOptions.deadlineMs ?? options.shutdownDeadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS, ...(options.hurry === undefined ? {} : { hurry: options.hurry }) });
          } finally {
            server.closeAllConnections();
            await serverClosed;
            if (ownsRegistry) await registry.close();
            logger.info('stopped');
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await gateway?.close({ deadlineMs: 0 }).catch(() => {});
    if (ownsRegistry) await registry.close().catch(() => {});
    throw error;
  }
}

function listen(server: HttpServer<typeof IncomingMessage, typeof ServerResponse>, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        reject(new SwitchboardError(ErrorCode.InvalidArgument, `port ${port} on ${host} is in use`, { cause: error, hint: 'stop what uses it, or pick another port with --port' }));
      } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
        reject(new SwitchboardError(ErrorCode.InvalidArgument, `cannot listen on ${host}: no such local address`, { cause: error, hint: 'use 127.0.0.1 (the default), or an address of this machine' }));
      } else {
        reject(new SwitchboardError(ErrorCode.Internal, `cannot listen on ${host}:${port}: ${error.code ?? error.message}`, { cause: error }));
      }
    };
    const onListening = (): void => {
      server.off('error', onError);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new SwitchboardError(ErrorCode.Internal, 'the server has no TCP address'));
      else resolve(address);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTNAMES.includes(host) || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** `replicaUrl` as the heartbeat stores it (its origin), or INVALID_ARGUMENT saying what is wrong. */
function checkedReplicaUrl(value: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(value);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username !== '' || parsed.password !== '') {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `the replica URL must be an http:// or https:// address without credentials, got "${value}"`, { hint: 'give where the other replicas reach this one, e.g. --replica-url http://10.0.0.5:7410' });
  }
  return parsed.origin;
}
