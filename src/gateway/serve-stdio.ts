/**
 * @module gateway/serve-stdio
 * `switchboard serve --stdio`: the same aggregated server over stdin/stdout, for clients configured
 * with a command (Claude Desktop, IDEs). One user is served — the administrator, or `user` — with
 * the registry's servers and the config file's. Both protocol eras are served (the SDK's
 * `serveStdio` decides per connection). stdout carries only the protocol: logs go to the logger
 * (stderr). The gateway stops when the client closes stdin, or on `close()`.
 */

import { randomUUID } from 'node:crypto';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import type { Transport } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { noopLogger } from '../logger.js';
import { type RegistryUser, ServerRegistry } from '../registry/index.js';
import { createAggregatedServer } from './aggregated-server.js';
import { bootstrapAdmin, type AdminBootstrapOptions } from './bootstrap-admin.js';
import { newDownstreamSession } from './downstream-session.js';
import { Gateway, type GatewayOptions } from './gateway.js';
import { DEFAULT_SHUTDOWN_DEADLINE_MS } from './gateway-defaults.js';
import type { McpEndpoint } from './mcp-endpoint.js';

/** Options of {@link serveGatewayStdio}. */
export interface StdioGatewayOptions extends Omit<GatewayOptions, 'registry' | 'allowedHosts' | 'allowedOrigins'> {
  /** An open registry (the caller closes it). Without one, `db` is opened and closed with the gateway. */
  registry?: ServerRegistry;
  /** @default $SWITCHBOARD_DB, else ./.switchboard/switchboard.db */
  db?: string;
  /** The user whose servers are served. @default the first administrator */
  user?: string;
  /**
   * A named endpoint to serve (as `/mcp/e/NAME` would) instead of the user's everything endpoint —
   * the way in over stdio once an administrator turned `/mcp` off.
   */
  endpoint?: string;
  /** Create the administrator (and its token file) when the registry has none. */
  bootstrap?: AdminBootstrapOptions;
  /** @default a stdio transport over this process's stdin/stdout */
  transport?: Transport;
  /** @default DEFAULT_SHUTDOWN_DEADLINE_MS */
  shutdownDeadlineMs?: number;
  /** Aborting it during a shutdown stops waiting for running calls (they are cancelled). */
  hurry?: AbortSignal;
}

/** A gateway serving over stdio. */
export interface StdioGateway {
  gateway: Gateway;
  user: RegistryUser;
  /** Resolves once the client has gone (stdin closed) or `close()` was called. */
  readonly done: Promise<void>;
  /** Graceful shutdown (idempotent). */
  close(): Promise<void>;
}

/** Serves one user's servers over stdio. */
export async function serveGatewayStdio(options: StdioGatewayOptions = {}): Promise<StdioGateway> {
  const logger = options.logger ?? noopLogger;
  const ownsRegistry = options.registry === undefined;
  const registry = options.registry ?? (await ServerRegistry.open({ ...(options.db === undefined ? {} : { db: options.db }), logger }));
  let gateway: Gateway | undefined;
  try {
    const admin = options.bootstrap === undefined ? undefined : await bootstrapAdmin(registry, options.bootstrap);
    const user = options.user !== undefined ? await registry.users.get(options.user) : (admin?.user ?? (await registry.users.list()).find((candidate) => candidate.isAdmin));
    if (user === undefined) throw new SwitchboardError(ErrorCode.NotFound, 'the registry has no administrator to serve', { hint: 'pass --user NAME, or create one with `switchboard users add NAME --admin`' });
    gateway = await Gateway.create({ ...options, registry, logger });
    const running = gateway;
    const served = stdioEndpoint(running, user, options.endpoint);
    const lease = await running.lease(user);
    const endpoint = served.endpointOf(user);
    endpoint.bind(lease.client);
    let finish: () => void = () => {};
    const done = new Promise<void>((resolve) => (finish = resolve));
    // The same switch as `/mcp` over HTTP: once it is off, this connection ends (HTTP would refuse its next request).
    const stopWhenOff = (): void => {
      if (options.endpoint !== undefined || running.access.everythingAllowed(user)) return;
      logger.warn('the administrator turned /mcp off: the stdio gateway stops (serve a named endpoint with --endpoint NAME)', { user: user.name });
      finish();
    };
    running.access.state.on('changed', stopWhenOff);
    const handle: StdioServerHandle = serveStdio(
      (context) => {
        const session = newDownstreamSession(randomUUID(), context.era);
        const server = createAggregatedServer({ host: endpoint, era: context.era, session });
        endpoint.attach(session);
        server.onclose = () => {
          void endpoint.detach(session);
        };
        return server;
      },
      { ...(options.transport === undefined ? {} : { transport: options.transport }), onerror: (error) => logger.debug('stdio connection error', { error: error.message }) },
    );
    if (options.transport === undefined) {
      // The stdio binding: a client that closes our stdin is gone, and we should exit.
      process.stdin.once('end', finish);
      process.stdin.once('close', finish);
    }
    logger.info('serving over stdio', { user: user.name, registry: registry.label, ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }) });
    let closing: Promise<void> | undefined;
    return {
      gateway: running,
      user,
      done,
      close: () => {
        closing ??= (async () => {
          finish();
          running.access.state.off('changed', stopWhenOff);
          process.stdin.off('end', finish);
          process.stdin.off('close', finish);
          try {
            await running.close({ deadlineMs: options.shutdownDeadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS, ...(options.hurry === undefined ? {} : { hurry: options.hurry }) });
          } finally {
            lease.release();
            await handle.close().catch(() => {});
            if (ownsRegistry) await registry.close();
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

/** What a stdio connection of `user` serves: the named endpoint, or `/mcp` when it is on for them. */
function stdioEndpoint(gateway: Gateway, user: RegistryUser, name: string | undefined): McpEndpoint {
  if (name !== undefined) return gateway.access.namedEndpoint(user, name);
  if (gateway.access.everythingAllowed(user)) return gateway.mcp;
  const names = gateway.access.endpointsOf(user).map((endpoint) => endpoint.name);
  throw new SwitchboardError(ErrorCode.Forbidden, `the administrator turned /mcp off, so ${user.name}'s everything endpoint is not served`, {
    hint: names.length === 0 ? 'ask an administrator for an endpoint' : `serve one of yours with --endpoint NAME: ${names.join(', ')}`,
  });
}
