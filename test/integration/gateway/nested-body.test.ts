/**
 * A deeply nested server entry (issue 14, finding 8a): `POST /api/servers` and `PATCH` with 5,000 to
 * 100,000 levels of nesting used to overflow the stack of the env-expansion walk (500). They are
 * refused with 400, naming the limit and where it was passed.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_ENTRY_DEPTH } from '../../../src/config/entry-depth.js';
import { startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let gateway: TestGateway;
let tenant: string;
beforeAll(async () => {
  gateway = await startTestGateway({ maxBodyBytes: 4 * 1024 * 1024 });
  tenant = (await gateway.addUser('tenant')).token;
});
afterAll(async () => {
  await gateway?.close();
});

/** `levels` arrays inside each other, around one string. */
function nested(levels: number): string {
  return `${'['.repeat(levels)}"x"${']'.repeat(levels)}`;
}

function entryBody(name: string, levels: number): string {
  return `{"name":"${name}","entry":{"url":"https://mcp.example.com/mcp","headers":{"x-deep":${nested(levels)}}}}`;
}

describe('deeply nested server entries', () => {
  test.each([5_000, 100_000])('POST /api/servers with %i levels is a 400 naming the limit, for an admin and a tenant', async (levels) => {
    for (const token of [gateway.adminToken, tenant]) {
      const response = await gateway.api('/api/servers', { token, body: entryBody(`deep${levels}`, levels) });
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(response.status).toBe(400);
      expect(body.error.code).toBe('CONFIG_INVALID');
      expect(body.error.message).toContain(`${MAX_ENTRY_DEPTH} levels`);
      expect(body.error.message).toContain('servers.deep');
    }
  });

  test('PATCH with a deep entry is a 400 too, and the stored server is unchanged', async () => {
    const created = await gateway.api('/api/servers', { token: gateway.adminToken, body: { name: 'plain', entry: { url: 'https://mcp.example.com/mcp' }, enabled: false } });
    expect(created.status).toBe(201);
    const response = await gateway.api('/api/servers/plain', { token: gateway.adminToken, method: 'PATCH', body: `{"entry":{"url":"https://mcp.example.com/mcp","headers":{"x":${nested(50_000)}}}}` });
    expect(response.status).toBe(400);
    const list = (await (await gateway.api('/api/servers')).json()) as { servers: Array<{ name: string; entry: Record<string, unknown> }> };
    expect(list.servers.find((server) => server.name === 'plain')?.entry).toEqual({ url: 'https://mcp.example.com/mcp' });
  });

  test('an entry nested a little (within the limit) is still judged on its content', async () => {
    const response = await gateway.api('/api/servers', { token: gateway.adminToken, body: entryBody('shallow', 3) });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).not.toContain('levels');
  });
});
