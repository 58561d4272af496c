/**
 * MCP Apps in the library, against the real app server (app-server.mjs): a client that declares the
 * UI extension (`extensions` option) gets the app's tools with `_meta` and safe icons in its catalog,
 * reads the `ui://` view the server never lists, and the LangChain adapter carries both in the tool's
 * metadata. Without the option the server offers its text tool only.
 */
import { afterEach, expect, test } from 'vitest';
import { createLangChainToolset } from '../../src/adapters/langchain.js';
import { MultiServerClient } from '../../src/client/multi-server-client.js';
import { UI_CLIENT_CAPABILITY, UI_EXTENSION_ID } from '../../src/client/mcp-apps.js';
import { FIXTURES, KITCHEN_SINK } from '../helpers/fixtures.js';

const SERVERS = { weather: { command: process.execPath, args: [`${FIXTURES}/app-server.mjs`] }, sink: { command: process.execPath, args: [KITCHEN_SINK] } };
let client: MultiServerClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

test('with the UI extension declared: _meta, safe icons, the unlisted view, and LangChain metadata', async () => {
  client = await MultiServerClient.connect({ mcpServers: SERVERS }, { extensions: { [UI_EXTENSION_ID]: UI_CLIENT_CAPABILITY } });
  const show = client.getTool('show_weather');
  expect(show?._meta).toEqual({ ui: { resourceUri: 'ui://weather/view.html' }, 'com.example/trace': 'kept' });
  expect(show?.icons?.map((icon) => icon.src.slice(0, 30))).toEqual(['https://example.com/weather.pn', 'data:image/png;base64,iVBORw0K']);
  const view = await client.readResource('ui://weather/view.html');
  expect(view.contents[0]?.mimeType).toBe('text/html;profile=mcp-app');
  expect(client.status().find((status) => status.name === 'weather')?.serverInfo?.icons).toHaveLength(2);
  const toolset = createLangChainToolset(client);
  try {
    const tool = toolset.tools.find((candidate) => candidate.name === 'show_weather');
    expect(tool?.metadata._meta).toEqual(show?._meta);
    expect(tool?.metadata.icons).toEqual(show?.icons);
  } finally {
    await toolset.close();
  }
});

test('without it the server offers its plain tool', async () => {
  client = await MultiServerClient.connect({ mcpServers: SERVERS });
  expect(client.listTools().filter((tool) => tool.server === 'weather').map((tool) => tool.name)).toEqual(['weather_text']);
});
