/**
 * A real gateway for a test: a fresh SQLite registry in a temporary folder, an administrator with a
 * token, the given config-file servers shared with everyone, listening on 127.0.0.1 (port 0) — and
 * real MCP clients of both SDK lines to talk to it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { normalizeConfig } from '../../src/config/normalize-config.js';
import type { Logger } from '../../src/logger.js';
import { noopLogger } from '../../src/logger.js';
import { startGateway, type RunningGateway, type StartGatewayOptions } from '../../src/gateway/serve.js';
import type { RegistryUser } from '../../src/registry/registry-types.js';
import { ServerRegistry } from '../../src/registry/server-registry.js';
import { ROOT } from './fixtures.js';

export interface TestGateway {
  running: RunningGateway;
  registry: ServerRegistry;
  url: string;
  mcpUrl: URL;
  admin: RegistryUser;
  adminToken: string;
  dir: string;
  /** A new user (tenant unless `admin`) and a token of theirs. */
  addUser(name: string, options?: { admin?: boolean }): Promise<{ user: RegistryUser; token: string }>;
  /** A JSON request to the gateway with a token. */
  api(path: string, options?: { token?: string | null; method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  close(): Promise<void>;
}

export interface TestGatewayOptions extends Omit<StartGatewayOptions, 'registry' | 'sharedConfig' | 'port' | 'logger'> {
  /** Config-file entries shared with every user. */
  servers?: Record<string, Record<string, unknown>>;
  naming?: 'on-conflict' | 'prefix' | 'none';
  logger?: Logger;
  /** The registry database (a `postgres://` URL or a file); the default is an SQLite file in the temporary folder. */
  db?: string;
}

/** Starts a gateway over a fresh registry. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const dir = mkdtempSync(join(tmpdir(), 'sb-gateway-'));
  const { servers, naming, logger, db, ...rest } = options;
  const registry = await ServerRegistry.open({ db: db ?? join(dir, 'switchboard.db'), keyFile: join(dir, 'secret.key'), watchIntervalMs: 50 });
  let running: RunningGateway | undefined;
  try {
    const admin = await registry.users.add('admin', { isAdmin: true });
    const { token: adminToken } = await registry.tokens.create(admin);
    const shared = servers === undefined ? undefined : normalizeConfig({ mcpServers: servers, ...(naming === undefined ? {} : { naming }) }, { baseDir: ROOT }).config;
    running = await startGateway({
      ...rest,
      registry,
      port: 0,
      logger: logger ?? noopLogger,
      ...(shared === undefined ? {} : { sharedConfig: { servers: shared.servers, naming: shared.naming } }),
      pool: { clientOptions: { retryFailedServers: false, listChangedDebounceMs: 0 }, ...rest.pool },
    });
    const started = running;
    const url = running.url;
    return {
      running,
      registry,
      url,
      mcpUrl: new URL(`${url}/mcp`),
      admin,
      adminToken,
      dir,
      async addUser(name, userOptions = {}) {
        const user = await registry.users.add(name, { isAdmin: userOptions.admin === true });
        const { token } = await registry.tokens.create(user);
        return { user, token };
      },
      api(path, requestOptions = {}) {
        const token = requestOptions.token === undefined ? adminToken : requestOptions.token;
        const headers: Record<string, string> = { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...requestOptions.headers };
        if (requestOptions.body !== undefined) headers['content-type'] = 'application/json';
        return fetch(`${url}${path}`, {
          method: requestOptions.method ?? (requestOptions.body === undefined ? 'GET' : 'POST'),
          headers,
          ...(requestOptions.body === undefined ? {} : { body: typeof requestOptions.body === 'string' ? requestOptions.body : JSON.stringify(requestOptions.body) }),
          signal: AbortSignal.timeout(30_000),
        });
      },
      async close() {
        try {
          await started.close({ deadlineMs: 2_000 });
        } finally {
          await registry.close();
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await running?.close({ deadlineMs: 0 }).catch(() => {});
    await registry.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** An official SDK v1 client (`@modelcontextprotocol/sdk`) on the gateway, 2025 era with a session. */
export async function connectV1(url: URL, token: string, capabilities: Record<string, unknown> = {}): Promise<V1Client> {
  const client = new V1Client({ name: 'sdk-v1-test', version: '1.0.0' }, { capabilities });
  await client.connect(new V1HttpTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

/** An official SDK v2 client (`@modelcontextprotocol/client`) on the gateway, in `legacy` or `auto` negotiation. */
export async function connectV2(url: URL, token: string, mode: 'legacy' | 'auto', options: ClientOptions = {}): Promise<V2Client> {
  const client = new V2Client({ name: `sdk-v2-${mode}-test`, version: '1.0.0' }, { ...options, versionNegotiation: { mode } });
  await client.connect(new V2HttpTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}
