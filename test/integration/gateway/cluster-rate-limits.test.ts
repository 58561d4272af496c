/**
 * Rate limits hold across replicas: two gateways on one PostgreSQL registry draw from the same token
 * buckets, so a user who spreads calls over both still gets the limit's error on the N+1th call in a
 * minute (a real SDK v2 client on each replica, and the REST API; an injected clock, no sleeping).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client as V2Client } from '@modelcontextprotocol/client';
import { normalizeConfig } from '../../../src/config/normalize-config.js';
import { startGateway, type RunningGateway } from '../../../src/gateway/serve.js';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { ServerRegistry } from '../../../src/registry/server-registry.js';
import { KITCHEN_SINK, ROOT } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { waitFor } from '../../helpers/processes.js';
import { createTestDatabase, postgresUnavailableReason, type TestDatabase } from '../../helpers/registry-backends.js';

const reason = process.env.CI === 'true' ? undefined : await postgresUnavailableReason();
const servers = { sink: { command: process.execPath, args: [KITCHEN_SINK] } };

describe.skipIf(reason !== undefined)(`rate limits across two replicas on PostgreSQL${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
  let database: TestDatabase;
  let first: TestGateway;
  let secondRegistry: ServerRegistry;
  let second: RunningGateway;
  let sam: { user: RegistryUser; token: string };
  let now = 5_000_000;
  const clients: V2Client[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    first = await startTestGateway({ db: database.db, servers, access: { now: () => now } });
    secondRegistry = await ServerRegistry.open({ db: database.db, keyFile: join(first.dir, 'secret.key') });
    const shared = normalizeConfig({ mcpServers: servers }, { baseDir: ROOT }).config;
    second = await startGateway({ registry: secondRegistry, port: 0, sharedConfig: { servers: shared.servers, naming: shared.naming }, access: { now: () => now }, pool: { clientOptions: { retryFailedServers: false } } });
    sam = await first.addUser('sam');
    expect((await first.api('/api/limits', { body: { scope: { kind: 'user', name: 'sam' }, perMinute: 4 } })).status).toBe(201);
    // The second replica hears of the new limit through LISTEN/NOTIFY.
    await waitFor(() => second.gateway.access.state.current.limits.length === 1, 10_000, 'the second replica to load the limit');
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    await second?.close({ deadlineMs: 1_000 });
    await secondRegistry?.close();
    await first?.close();
    await database?.drop();
  });

  test('4 calls a minute in all, whichever replica takes them', async () => {
    const onFirst = await connectV2(first.mcpUrl, sam.token, 'legacy');
    const onSecond = await connectV2(new URL(`${second.url}/mcp`), sam.token, 'legacy');
    clients.push(onFirst, onSecond);
    for (const [index, client] of [onFirst, onSecond, onFirst, onSecond].entries()) {
      const result = (await client.callTool({ name: 'echo', arguments: { message: `call ${index}` } })) as { isError?: boolean; content: Array<{ text: string }> };
      expect(result.isError, result.content[0]?.text).not.toBe(true);
    }
    const refused = (await onFirst.callTool({ name: 'echo', arguments: { message: 'fifth' } })) as { isError?: boolean; content: Array<{ text: string }> };
    expect(refused.isError).toBe(true);
    expect(refused.content[0]?.text).toMatch(/rate limit reached for "echo": 4 calls per minute per caller for user sam; retry in 15 s/);
    const rest = await fetch(`${second.url}/api/tools/echo/call`, { method: 'POST', headers: { authorization: `Bearer ${sam.token}`, 'content-type': 'application/json' }, body: '{"arguments":{"message":"rest"}}' });
    expect(rest.status).toBe(429);
    now += 15_000;
    expect(((await onSecond.callTool({ name: 'echo', arguments: { message: 'later' } })) as { isError?: boolean }).isError).not.toBe(true);
    expect(((await onFirst.callTool({ name: 'echo', arguments: { message: 'again' } })) as { isError?: boolean }).isError).toBe(true);
  });
});
