/**
 * A named endpoint shows the prompts, resources and resource templates of the servers it serves, not
 * every server's: over a real gateway with two real upstreams (the kitchen sink, `sink`, with a prompt,
 * a resource and a template; the subscription server, `watch`, with resources, a template and
 * completions), through the MCP SDK v2 client. With `/mcp` off, an endpoint over one server was a way
 * to read every other server's resources.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { FIXTURES, KITCHEN_SINK } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';

let gateway: TestGateway;
let sam: { token: string };

beforeAll(async () => {
  gateway = await startTestGateway({ servers: { sink: { command: process.execPath, args: [KITCHEN_SINK] }, watch: { command: process.execPath, args: [`${FIXTURES}/subscription-server.mjs`] } } });
  sam = await gateway.addUser('sam');
  expect((await gateway.api('/api/endpoints/sink-only', { method: 'PUT', body: { servers: ['sink'], access: { users: ['sam'] } } })).status).toBe(201);
  // No `servers`: the servers of the tools it selects (the subscription server has none).
  expect((await gateway.api('/api/endpoints/echo-only', { method: 'PUT', body: { tools: ['sink/echo'], access: { users: ['sam'] } } })).status).toBe(201);
  expect((await gateway.api('/api/settings/everything', { method: 'PUT', body: { on: false } })).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

test('an endpoint over one server lists, reads and completes only that server\'s prompts and resources', async () => {
  for (const name of ['sink-only', 'echo-only']) {
    const client = await connectV2(new URL(`${gateway.url}/mcp/e/${name}`), sam.token, 'legacy');
    try {
      const resources = (await client.listResources()).resources.map((resource) => resource.uri);
      expect(resources, name).toContain('memo://readme');
      expect(resources.filter((uri) => uri.startsWith('watch://')), name).toEqual([]);
      const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
      expect(templates, name).toContain('memo://notes/{id}');
      expect(templates, name).not.toContain('watch://item/{id}');
      expect((await client.listPrompts()).prompts.map((prompt) => prompt.name), name).toContain('greet');
      const readme = await client.readResource({ uri: 'memo://readme' });
      expect(JSON.stringify(readme.contents), name).toContain('readme of');
      // The other server's resources are not there: read, subscribed or completed.
      await expect(client.readResource({ uri: 'watch://a' }), name).rejects.toThrow(/no server offers a resource at "watch:\/\/a"/);
      await expect(client.readResource({ uri: 'watch://item/12' }), name).rejects.toThrow(/no server offers a resource at/);
      await expect(client.subscribeResource({ uri: 'watch://a' }), name).rejects.toThrow(/no server offers a resource at/);
      await expect(client.complete({ ref: { type: 'ref/resource', uri: 'watch://item/{id}' }, argument: { name: 'id', value: '1' } }), name).rejects.toThrow(/no server offers a resource template/);
    } finally {
      await client.close();
    }
  }
});

test('an endpoint over the other server shows its resources and none of the first one\'s prompts', async () => {
  expect((await gateway.api('/api/endpoints/watch-only', { method: 'PUT', body: { servers: ['watch'], access: { users: ['sam'] } } })).status).toBe(201);
  const client = await connectV2(new URL(`${gateway.url}/mcp/e/watch-only`), sam.token, 'legacy');
  try {
    expect((await client.listResources()).resources.map((resource) => resource.uri).sort()).toEqual(['watch://a', 'watch://b']);
    expect(JSON.stringify((await client.readResource({ uri: 'watch://item/12' })).contents)).toContain('item 12');
    expect((await client.complete({ ref: { type: 'ref/resource', uri: 'watch://item/{id}' }, argument: { name: 'id', value: '1' } })).completion.values).toEqual(['1', '12', '123']);
    const prompts = await client.listPrompts().catch(() => ({ prompts: [] }));
    expect(prompts.prompts.map((prompt) => prompt.name)).not.toContain('greet');
    await expect(client.getPrompt({ name: 'greet', arguments: { name: 'x' } })).rejects.toThrow(/There is no prompt named "greet"/);
    await expect(client.readResource({ uri: 'memo://readme' })).rejects.toThrow(/no server offers a resource at/);
  } finally {
    await client.close();
  }
});
