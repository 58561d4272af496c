/**
 * URL-mode elicitation through the gateway, from a real server (asking-server.mjs `sign_in`, SDK v2):
 * forwarded to a client that declared `elicitation.url` (2025 session and 2026-07-28 rounds), with
 * the URL as the server sent it for the client to show; refused with the reason to a client that
 * declared form mode only; and a URL that is not https: (or loopback http:) never reaches a client.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { FIXTURES } from '../../helpers/fixtures.js';
import { connectV2, startTestGateway, type TestGateway } from '../../helpers/gateway.js';

const ASKING_SERVER = `${FIXTURES}/asking-server.mjs`;
const SIGN_IN = 'https://auth.example.com/sign-in?session=42';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ servers: { asking: { command: process.execPath, args: [ASKING_SERVER] } } });
});
afterAll(async () => {
  await gateway?.close();
});

function textOf(result: { content: unknown }): string {
  return JSON.stringify(result.content);
}

describe.each(['legacy', 'auto'] as const)('SDK v2 client, %s negotiation', (mode) => {
  let client: Client;
  const shown: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    client = await connectV2(gateway.mcpUrl, gateway.adminToken, mode, { capabilities: { elicitation: { form: {}, url: {} } } });
    client.setRequestHandler('elicitation/create', async (request) => {
      shown.push({ ...request.params });
      return { action: 'accept' };
    });
  });
  afterAll(async () => {
    await client?.close();
  });

  test('a client that declared URL mode gets the request with the URL to show', async () => {
    const result = await client.callTool({ name: 'sign_in', arguments: { url: SIGN_IN } });
    expect(textOf(result)).toContain('sign-in: accept');
    expect(shown.at(-1)).toMatchObject({ mode: 'url', url: SIGN_IN, message: 'Sign in to continue.' });
    // A 2025 session keeps the server's elicitationId; on 2026-07-28 the input request's key stands for it.
    if (mode === 'legacy') expect(shown.at(-1)?.elicitationId).toBe('sign-in-1');
  });

  test('a loopback http: URL is accepted', async () => {
    const result = await client.callTool({ name: 'sign_in', arguments: { url: 'http://127.0.0.1:8123/callback' } });
    expect(textOf(result)).toContain('sign-in: accept');
  });

  test.each(['http://auth.example.com/sign-in', 'javascript:alert(1)', 'https://user:pw@auth.example.com/', 'file:///etc/passwd'])('%s never reaches the client', async (url) => {
    const before = shown.length;
    const result = await client.callTool({ name: 'sign_in', arguments: { url } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/asked the user to open a URL that was refused/);
    expect(shown.length).toBe(before);
  });
});

test('a client that declared form mode only is refused clearly', async () => {
  const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy', { capabilities: { elicitation: { form: {} } } });
  let asked = 0;
  client.setRequestHandler('elicitation/create', async () => {
    asked++;
    return { action: 'accept' };
  });
  try {
    const result = await client.callTool({ name: 'sign_in', arguments: { url: SIGN_IN } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/URL-mode elicitation declined: the MCP client connected to the gateway did not declare the URL-mode elicitation capability/);
    expect(asked).toBe(0);
  } finally {
    await client.close();
  }
});
