/**
 * The library with an entry whose `${VAR}` or `${input:ID}` has no value: with `onServerError: skip`
 * (the default) only that server fails, with the path and what to do; the others start.
 */
import { expect, test } from 'vitest';
import { MultiServerClient, SwitchboardError } from '../../src/index.js';
import { KITCHEN_SINK } from '../helpers/fixtures.js';

test('connect(): an unset ${VAR} and a missing input fail their servers only; the rest start and serve calls', async () => {
  delete process.env.SB_LIB_UNSET_TOKEN;
  const client = await MultiServerClient.connect({
    inputs: [{ id: 'api-key', type: 'promptString', description: 'API key', password: true }],
    mcpServers: {
      sink: { command: process.execPath, args: [KITCHEN_SINK] },
      remote: { url: 'https://example.invalid/mcp', headers: { Authorization: 'Bearer ${SB_LIB_UNSET_TOKEN}' } },
      keyed: { command: process.execPath, args: [KITCHEN_SINK], env: { API_KEY: '${input:api-key}' } },
    },
  });
  try {
    const status = client.status();
    expect(status.map((server) => [server.name, server.state, server.error?.code])).toEqual([
      ['sink', 'ready', undefined],
      ['remote', 'failed', 'CONFIG_INVALID'],
      ['keyed', 'failed', 'CONFIG_INVALID'],
    ]);
    expect(status[1]?.error).toMatchObject({
      message: 'mcpServers.remote.headers.Authorization: environment variable SB_LIB_UNSET_TOKEN is not set',
      hint: 'set it, or write ${SB_LIB_UNSET_TOKEN:-default}',
    });
    expect(status[2]?.error?.message).toBe('mcpServers.keyed.env.API_KEY: input "api-key" (API key) has no value');
    // Nothing to retry: it stays failed (and says why) rather than "connecting".
    expect(await client.retryServer('remote')).toBe(false);
    const echo = client.listTools().find((tool) => tool.server === 'sink' && tool.originalName === 'echo');
    expect((await client.callTool(echo?.name ?? 'echo', { message: 'still here' })).content).toEqual([{ type: 'text', text: 'still here' }]);
  } finally {
    await client.close();
  }
});

test('connect() with onServerError: throw rejects the whole config, naming the variable', async () => {
  const failure = await MultiServerClient.connect({ onServerError: 'throw', mcpServers: { remote: { url: 'https://${SB_LIB_UNSET_HOST}/mcp' } } }).catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(SwitchboardError);
  expect(failure).toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('mcpServers.remote.url: environment variable SB_LIB_UNSET_HOST is not set') });
});
