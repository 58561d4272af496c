/**
 * MCP Apps and icons through the gateway, against a real app server on the SDK v2 (app-server.mjs)
 * beside the kitchen sink, read by the official SDK v2 client in both eras. A client that declares
 * the UI extension sees the app's tools under their exposed (prefixed) names with `_meta` and icons
 * as listed (unsafe icons dropped), reads the `ui://` view the server never lists, and sees the
 * extension in the gateway's capabilities; a client without it sees no app-only tool and no UI keys.
 * The dashboard's app route serves only a tool the user's rules let them see.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { FIXTURES, KITCHEN_SINK } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';

const APP_SERVER = `${FIXTURES}/app-server.mjs`;
const UI = 'io.modelcontextprotocol/ui';
const UI_CAPABILITIES = { capabilities: { extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } } };
const SAFE_ICON_SOURCES = ['https://example.com/weather.png', expect.stringMatching(/^data:image\/png;base64,iVBOR/)];

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({
    naming: 'prefix',
    servers: { weather: { command: process.execPath, args: [APP_SERVER] }, sink: { command: process.execPath, args: [KITCHEN_SINK] } },
  });
});
afterAll(async () => {
  await gateway?.close();
});

describe.each(['legacy', 'auto'] as const)('SDK v2 client, %s negotiation', (mode) => {
  let app: Client;
  let plain: Client;
  beforeAll(async () => {
    app = await connectV2(gateway.mcpUrl, gateway.adminToken, mode, UI_CAPABILITIES);
    plain = await connectV2(gateway.mcpUrl, gateway.adminToken, mode);
  });
  afterAll(async () => {
    await app?.close();
    await plain?.close();
  });

  test('an app client sees the tools with their _meta and safe icons, under the exposed names', async () => {
    const { tools } = await app.listTools();
    const show = tools.find((tool) => tool.name.endsWith('show_weather'));
    const refresh = tools.find((tool) => tool.name.endsWith('refresh_weather'));
    expect(show?.name).not.toBe('show_weather');
    expect(show?._meta).toEqual({ ui: { resourceUri: 'ui://weather/view.html' }, 'com.example/trace': 'kept' });
    expect(show?.icons?.map((icon) => icon.src)).toEqual(SAFE_ICON_SOURCES);
    expect(show?.icons?.[0]).toEqual({ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] });
    expect(refresh?._meta).toEqual({ ui: { resourceUri: 'ui://weather/view.html', visibility: ['app'] } });
    expect((app.getServerCapabilities() as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[UI]).toBeDefined();
  });

  test('the unlisted ui:// view is read from the server whose tool names it', async () => {
    const { resources } = await app.listResources();
    expect(resources.map((resource) => resource.uri)).not.toContain('ui://weather/view.html');
    const result = await app.readResource({ uri: 'ui://weather/view.html' });
    const [view] = result.contents;
    expect(view?.mimeType).toBe('text/html;profile=mcp-app');
    expect(view !== undefined && 'text' in view ? view.text : '').toContain('<h1 id="forecast">Sunny</h1>');
    expect(view?._meta).toEqual({ ui: { csp: { connectDomains: [] }, prefersBorder: true } });
  });

  test('listed resources keep their safe icons', async () => {
    const { resources } = await app.listResources();
    const stations = resources.find((resource) => resource.uri === 'weather://stations');
    expect(stations?.icons?.map((icon) => icon.src)).toEqual(SAFE_ICON_SOURCES);
  });

  test('a client without the UI extension sees no app-only tool and no UI metadata', async () => {
    const { tools } = await plain.listTools();
    expect(tools.some((tool) => tool.name.endsWith('refresh_weather'))).toBe(false);
    const show = tools.find((tool) => tool.name.endsWith('show_weather'));
    expect(show?._meta).toEqual({ 'com.example/trace': 'kept' });
    const result = await plain.callTool({ name: show?.name ?? '', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'show_weather: sunny' }]);
  });
});

test("the dashboard's app route shows only a tool the user's rules let them see", async () => {
  const listed = (await (await gateway.api('/api/tools')).json()) as { tools: Array<{ name: string; uiResourceUri?: string }> };
  const show = listed.tools.find((tool) => tool.name.endsWith('show_weather'));
  expect(show?.uiResourceUri).toBe('ui://weather/view.html');
  const path = `/api/tools/${encodeURIComponent(show?.name ?? '')}/app`;
  expect((await gateway.api(path)).status).toBe(200);
  const rule = await gateway.api('/api/rules', { body: { scope: { kind: 'user', name: 'admin' }, effect: 'deny', servers: ['weather'], description: 'no weather today' } });
  expect(rule.status, await rule.clone().text()).toBe(201);
  try {
    const refused = await gateway.api(path);
    expect(refused.status).toBe(404);
  } finally {
    const { rule: added } = (await rule.json()) as { rule: { id: string } };
    expect((await gateway.api(`/api/rules/${added.id}`, { method: 'DELETE' })).status).toBe(204);
  }
  expect((await gateway.api(path)).status).toBe(200);
});
