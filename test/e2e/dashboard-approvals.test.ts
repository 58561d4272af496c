/**
 * Approval for writes in a real browser: a user's SDK v2 client calls a tool that may write on an
 * endpoint that asks for approval; the call waits while the admin's dashboard (Chromium) shows it on
 * the Approvals page with who, which tool and the arguments; Approve lets it run, Deny refuses it.
 * The Access page shows the endpoint with its connection snippets. Both registry backends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RegistryUser } from '../../src/registry/registry-types.js';
import { axeViolations, describeViolations } from '../helpers/axe.js';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { ROOT } from '../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { backendsToTest, createTestDatabase, type TestDatabase } from '../helpers/registry-backends.js';
import { openLoginLink } from '../helpers/login-link.js';

const pkg = (name: string): string => resolve(ROOT, `node_modules/@modelcontextprotocol/${name}/dist/index.js`);
const missing = chromiumMissing();

for (const { kind, skip } of await backendsToTest()) {
  const reason = skip ?? missing;
  describe.skipIf(reason !== undefined)(`approvals in the dashboard on ${kind}${reason === undefined ? '' : ` (skipped: ${reason})`}`, () => {
    let database: TestDatabase;
    let gateway: TestGateway;
    let browser: Awaited<ReturnType<typeof launchChromium>> | undefined;
    let page: Page;
    let dir: string;
    let sam: { user: RegistryUser; token: string };
    const problems: string[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      dir = mkdtempSync(join(tmpdir(), 'sb-approvals-'));
      [gateway, browser] = await Promise.all([
        startTestGateway({ db: database.db, servers: { memory: { command: process.execPath, args: [pkg('server-memory')], env: { MEMORY_FILE_PATH: join(dir, 'memory.jsonl') } } } }),
        launchChromium(),
      ]);
      browser.context.setDefaultTimeout(10_000);
      sam = await gateway.addUser('sam');
      expect((await gateway.api('/api/endpoints/crm', { method: 'PUT', body: { servers: ['memory'], access: { users: ['sam'] }, approval: { writes: true, timeoutSeconds: 60 } } })).status).toBe(201);
      page = await browser.context.newPage();
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      await openLoginLink(page, gateway.url, gateway.adminToken);
      await page.getByRole('link', { name: 'Approvals' }).click();
    }, 60_000);

    afterAll(async () => {
      try {
        await browser?.close();
      } finally {
        await gateway?.close();
        await database?.drop();
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      }
    }, 30_000);

    const waitingCall = async (customer: string) => {
      const client = await connectV2(new URL(`${gateway.url}/mcp/e/crm`), sam.token, 'legacy');
      const call = client.callTool({ name: 'create_entities', arguments: { entities: [{ name: customer, entityType: 'customer', observations: ['wants a refund'] }] } }).then(
        (result) => result as { isError?: boolean; content: Array<{ text: string }> },
        (error: unknown) => ({ isError: true, content: [{ text: String(error) }] }),
      );
      const card = page.getByRole('listitem', { name: 'create_entities by sam' });
      await card.waitFor();
      expect(await card.textContent()).toContain(customer);
      expect(await card.textContent()).toContain('endpoint crm');
      return { client, call, card };
    };

    test('Approve lets the waiting call run', async () => {
      const { client, call, card } = await waitingCall('approved-customer');
      try {
        expect(describeViolations(await axeViolations(page)), 'accessibility of the Approvals page').toEqual([]);
        await card.getByRole('button', { name: 'Approve' }).click();
        const result = await call;
        expect(result.isError, result.content[0]?.text).not.toBe(true);
        await card.waitFor({ state: 'detached' });
        const graph = (await client.callTool({ name: 'read_graph', arguments: {} })) as { content: Array<{ text: string }> };
        expect(graph.content[0]?.text).toContain('approved-customer');
      } finally {
        await client.close();
      }
    });

    test('Deny refuses it, with a message the model can read', async () => {
      const { client, call, card } = await waitingCall('denied-customer');
      try {
        await card.getByRole('button', { name: 'Deny' }).click();
        const result = await call;
        expect(result.isError).toBe(true);
        expect(result.content[0]?.text).toContain('denied by a person reviewing it');
        const graph = (await client.callTool({ name: 'read_graph', arguments: {} })) as { content: Array<{ text: string }> };
        expect(graph.content[0]?.text).not.toContain('denied-customer');
      } finally {
        await client.close();
      }
    });

    test('the Access page shows the endpoint and its connection snippets', async () => {
      await page.getByRole('link', { name: 'Access' }).click();
      const card = page.getByRole('listitem', { name: 'endpoint crm' });
      await card.waitFor();
      await card.getByText('Connect a client').click();
      expect(await card.textContent()).toContain(`${gateway.url}/mcp/e/crm`);
      expect(await card.textContent()).toContain('mcp-remote');
      await page.getByRole('heading', { name: 'Rate limits' }).waitFor();
      expect(describeViolations(await axeViolations(page)), 'accessibility of the Access page').toEqual([]);
      expect(problems).toEqual([]);
    });
  });
}
