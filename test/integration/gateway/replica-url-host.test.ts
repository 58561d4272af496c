/**
 * Replicas on several machines, as the README sets them up (`--allowed-host NAME --replica-url
 * http://ADDRESS:PORT`): the replicas address each other by their replica URL, so its host is one of
 * the gateway's own for the Host check. Without that, every hop — a 2026-07-28 retry whose call another
 * replica holds, an OAuth callback for another replica's login — was refused with a 403 that told the
 * caller the replica's internal address. Two in-process replicas on one PostgreSQL registry; the replica
 * URL's host is `[::ffff:127.0.0.1]` (reaches the 127.0.0.1 listener under a name the gateway does not
 * otherwise answer to, as a machine's internal address would).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { startGateway, type RunningGateway } from '../../../src/gateway/serve.js';
import { noopLogger } from '../../../src/logger.js';
import { SecretBox } from '../../../src/registry/secret-box.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { FIXTURES, ROOT, freePort } from '../../helpers/fixtures.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../../helpers/registry-backends.js';

const postgres = (await backendsToTest()).find((backend) => backend.kind === 'postgres');
const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' }, 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

describe.skipIf(postgres?.skip !== undefined)(`replicas that reach each other by their replica URL${postgres?.skip === undefined ? '' : ` (skipped: ${postgres.skip})`}`, () => {
  let database: TestDatabase;
  const registries: ServerRegistry[] = [];
  const gateways: RunningGateway[] = [];
  let eve: string;

  const ask = async (url: string, extra: Record<string, unknown> = {}): Promise<{ status: number; text: string }> => {
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${eve}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'asking__ask_name' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'asking__ask_name', arguments: {}, _meta: META, ...extra } }),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: response.status, text: await response.text() };
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const secretKey = SecretBox.formatKey(SecretBox.generateKey());
    const shared = normalizeConfig({ mcpServers: { asking: { command: process.execPath, args: [`${FIXTURES}/asking-server.mjs`] } } }, { baseDir: ROOT }).config;
    for (let index = 0; index < 2; index++) {
      const registry = await ServerRegistry.open({ db: database.db, secretKey });
      registries.push(registry);
      const port = await freePort();
      gateways.push(await startGateway({ registry, host: '127.0.0.1', port, replicaUrl: `http://[::ffff:127.0.0.1]:${port}`, allowedHosts: ['mcp.example.com'], oauth: false, logger: noopLogger, sharedConfig: { servers: shared.servers, naming: shared.naming } }));
    }
    eve = (await registries[0]!.tokens.create(await registries[0]!.users.add('eve'))).token;
  }, 60_000);

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close({ deadlineMs: 500 });
    for (const registry of registries) await registry.close();
    await database?.drop();
  });

  test('a retry sent to the other replica reaches the one holding the call, and nothing tells its address', async () => {
    const [a, b] = gateways as [RunningGateway, RunningGateway];
    const asked = await ask(a.url);
    const state = String(((JSON.parse(asked.text) as { result?: { requestState?: string } }).result ?? {}).requestState);
    expect(state.startsWith(`${a.gateway.replica.id}.`), asked.text).toBe(true);
    const retry = await ask(b.url, { requestState: state, inputResponses: { q1: { action: 'accept', content: { name: 'Ada' } } } });
    expect(retry.status, retry.text).toBe(200);
    expect(retry.text).toContain('hello Ada');
    expect(retry.text).not.toContain('ffff');
  });

  test('the host of the replica URL is the gateway\'s own; other hosts are still refused', async () => {
    const [a] = gateways as [RunningGateway];
    const port = Number(new URL(a.url).port);
    const me = (host: string): Promise<number> =>
      new Promise((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/api/me', headers: { host, authorization: `Bearer ${eve}` } }, (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        })
          .on('error', reject)
          .end();
      });
    expect(await me(`[::ffff:7f00:1]:${port}`)).toBe(200);
    expect(await me(`elsewhere.example:${port}`)).toBe(403);
  });
});
