/**
 * What the gateway does with its upstreams, measured at the upstream:
 * - one upstream session per (user, server), reused by every call of every downstream client of that
 *   user, whatever the protocol era (ContextForge opens a session per call: +20 ms to +6.5 s per call);
 * - two servers offering the same tool names are both served, under prefixed names that route to
 *   the right server (Docker's gateway refuses to start on a collision).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KITCHEN_SINK, freePort, startHttpFixture, type HttpFixture } from '../../helpers/fixtures.js';
import { connectV1, connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';
import { descendantsOf, waitFor } from '../../helpers/processes.js';

describe('upstream sessions are pooled per user and server', () => {
  let upstream: HttpFixture;
  let gateway: TestGateway;
  beforeAll(async () => {
    const port = await freePort();
    upstream = await startHttpFixture(process.execPath, [KITCHEN_SINK, '--http', String(port)], { port });
    gateway = await startTestGateway({ servers: { remote: { url: upstream.url('/mcp'), transport: 'http', protocol: 'legacy' } } });
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  async function upstreamStats(): Promise<{ initializes: number; toolCalls: number }> {
    return (await (await fetch(upstream.url('/control/stats'))).json()) as { initializes: number; toolCalls: number };
  }

  test('many calls from several clients of one user share one upstream session; another user gets their own', async () => {
    const before = await upstreamStats();
    const v1 = await connectV1(gateway.mcpUrl, gateway.adminToken);
    const legacy = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    const modern = await connectV2(gateway.mcpUrl, gateway.adminToken, 'auto');
    try {
      for (let round = 0; round < 10; round++) {
        await Promise.all([
          v1.callTool({ name: 'echo', arguments: { message: `v1 ${round}` } }),
          legacy.callTool({ name: 'echo', arguments: { message: `legacy ${round}` } }),
          modern.callTool({ name: 'echo', arguments: { message: `modern ${round}` } }),
          gateway.api('/api/tools/echo/call', { body: { arguments: { message: `api ${round}` } } }),
        ]);
      }
      const afterAdmin = await upstreamStats();
      expect(afterAdmin.toolCalls - before.toolCalls).toBe(40);
      // One session for the admin (opened when the admin's client started), none per call.
      expect(afterAdmin.initializes).toBe(1);
      const { token } = await gateway.addUser('second');
      const other = await connectV2(gateway.mcpUrl, token, 'legacy');
      try {
        for (let index = 0; index < 5; index++) await other.callTool({ name: 'echo', arguments: { message: `second ${index}` } });
      } finally {
        await other.close();
      }
      expect((await upstreamStats()).initializes).toBe(2);
    } finally {
      await Promise.all([v1.close(), legacy.close(), modern.close()]);
    }
  });
});

describe('servers offering the same tool names', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({
      servers: {
        alpha: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'alpha', '--tools', 'search'] },
        beta: { command: process.execPath, args: [KITCHEN_SINK, '--name', 'beta', '--tools', 'search'] },
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
    await waitFor(() => descendantsOf(process.pid).every((child) => !child.cmdline.includes(KITCHEN_SINK)), 5_000, 'the servers to exit');
  });

  test('both are served; shared names get their server\'s prefix and route to it', async () => {
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['alpha__search', 'beta__search', 'alpha__echo', 'beta__echo']));
      expect(names).not.toContain('search');
      expect(await client.callTool({ name: 'alpha__search', arguments: { query: 'q' } })).toMatchObject({ content: [{ text: 'alpha/search: q' }] });
      expect(await client.callTool({ name: 'beta__search', arguments: { query: 'q' } })).toMatchObject({ content: [{ text: 'beta/search: q' }] });
    } finally {
      await client.close();
    }
  });
});
