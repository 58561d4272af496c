/**
 * Tool search per endpoint and the gateway-wide default, through a real SDK client on a real gateway
 * with real servers (server-filesystem and the kitchen sink): started with `toolSearch: 'on'`, a user
 * without their own setting gets search_tools and call_tool on /mcp, a user whose own setting is off
 * sees every tool; an endpoint with `toolSearch: 'on'` gives the meta-tools even to that user, and
 * search and call_tool there reach only the endpoint's tools, by the names it lists (a rename).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { RegistryUser } from '../../../src/registry/registry-types.js';
import { serve } from '../../../src/cli/commands/serve.js';
import { noopLogger } from '../../../src/logger.js';
import { KITCHEN_SINK, ROOT } from '../../helpers/fixtures.js';
import { connectV1, startTestGateway, type TestGateway } from '../../helpers/gateway.js';

const pkg = (name: string): string => resolve(ROOT, `node_modules/@modelcontextprotocol/${name}/dist/index.js`);
let gateway: TestGateway;
let carol: { user: RegistryUser; token: string };
let dave: { user: RegistryUser; token: string };
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-gw-search-ep-'));
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'refunds.md'), 'Refunds take 5 days.\n');
  gateway = await startTestGateway({
    servers: {
      files: { command: process.execPath, args: [pkg('server-filesystem'), join(dir, 'docs')] },
      sink: { command: process.execPath, args: [KITCHEN_SINK] },
    },
    toolSearch: 'on',
  });
  carol = await gateway.addUser('carol');
  dave = await gateway.addUser('dave');
  await gateway.registry.users.setToolSearch(dave.user, { mode: 'off' });
  const endpoint = await gateway.api('/api/endpoints/docs', {
    method: 'PUT',
    body: { servers: ['files'], tools: ['files/read_text_file', 'files/list_directory'], renames: { 'files/list_directory': 'browse_docs' }, toolSearch: 'on', access: { users: ['dave'] } },
  });
  expect(endpoint.status, await endpoint.clone().text()).toBe(201);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function text(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content ?? [];
  return content.map((item) => item.text ?? '').join('\n');
}

test("the gateway's default applies to a user without their own setting; a user's own 'off' wins over it", async () => {
  const client = await connectV1(gateway.mcpUrl, carol.token);
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
    const found = JSON.parse(text(await client.callTool({ name: 'search_tools', arguments: { query: 'echo a message back' } }))) as { tools: Array<{ name: string }> };
    expect(found.tools.map((tool) => tool.name)).toContain('echo');
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'echo', arguments: { message: 'by default' } } }))).toContain('by default');
  } finally {
    await client.close();
  }
  const own = await connectV1(gateway.mcpUrl, dave.token);
  try {
    const names = (await own.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('search_tools');
  } finally {
    await own.close();
  }
});

test("an endpoint's toolSearch applies on /mcp/e/NAME: search and call_tool reach only its tools, by the names it lists", async () => {
  const client = await connectV1(new URL(`${gateway.url}/mcp/e/docs`), dave.token);
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
    const found = JSON.parse(text(await client.callTool({ name: 'search_tools', arguments: { query: 'list the files in a directory', limit: 5 } }))) as { tools: Array<{ name: string }> };
    const names = found.tools.map((tool) => tool.name);
    expect(names[0]).toBe('browse_docs');
    expect(names.every((name) => ['browse_docs', 'read_text_file'].includes(name))).toBe(true);
    expect(text(await client.callTool({ name: 'search_tools', arguments: { query: 'echo a message back' } }))).not.toContain('"echo"');
    const listed = await client.callTool({ name: 'call_tool', arguments: { name: 'browse_docs', arguments: { path: join(dir, 'docs') } } });
    expect(listed.isError, text(listed)).not.toBe(true);
    expect(text(listed)).toContain('refunds.md');
    for (const outside of ['echo', 'list_directory', 'write_file']) {
      const refused = await client.callTool({ name: 'call_tool', arguments: { name: outside, arguments: {} } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain(`There is no tool "${outside}"`);
    }
  } finally {
    await client.close();
  }
});

test("/api/tool-search shows the gateway's default to a user without a setting, and 'off' there sticks", async () => {
  const erin = await gateway.addUser('erin');
  expect(await (await gateway.api('/api/tool-search', { token: erin.token })).json()).toMatchObject({ toolSearch: { mode: 'on' }, active: true });
  const off = await gateway.api('/api/tool-search', { method: 'PUT', token: erin.token, body: { mode: 'off' } });
  expect(await off.json()).toMatchObject({ toolSearch: { mode: 'off' }, active: false });
  expect((await gateway.registry.users.get('erin')).toolSearch).toEqual({ mode: 'off' });
  const client = await connectV1(gateway.mcpUrl, erin.token);
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
  } finally {
    await client.close();
  }
});

test('switchboard serve --tool-search refuses a mode it does not know, before starting anything', async () => {
  const run = serve({ stdio: false, allowedHosts: [], allowedOrigins: [], toolSearch: 'sometimes', logLevel: 'error', signal: AbortSignal.abort(), logger: noopLogger });
  await expect(run).rejects.toThrow('--tool-search must be one of off, on, auto, got "sometimes"');
});
