/**
 * SEP-2243 on a 2026-07-28 connection over Streamable HTTP: tools whose `x-mcp-header` declarations
 * are invalid are left out of the catalogue, and the arguments a tool declares as headers travel as
 * `Mcp-Param-*` headers beside the body. The server is the SDK v2's own 2026-07-28 handler.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { Server, createMcpHandler, type Tool } from '@modelcontextprotocol/server';
import { afterEach, expect, test } from 'vitest';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { specOf } from '../helpers/fixtures.js';

const TOOLS: Tool[] = [
  {
    name: 'locate',
    description: 'Looks a place up; region and priority also travel as headers.',
    inputSchema: {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, priority: { type: 'integer', 'x-mcp-header': 'Priority' }, note: { type: 'string' } },
      required: ['region'],
    },
  },
  { name: 'broken', description: 'Declares a header on an object (invalid).', inputSchema: { type: 'object', properties: { data: { type: 'object', 'x-mcp-header': 'Data' } } } },
];

function createHeaderServer(): Server {
  const server = new Server({ name: 'headers', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', async () => ({ tools: TOOLS }));
  // Answers with the Mcp-Param-* headers the call arrived with.
  server.setRequestHandler('tools/call', async (_request, context) => {
    const headers: Record<string, string> = {};
    context.http?.req?.headers.forEach((value, name) => {
      if (name.startsWith('mcp-param-')) headers[name] = value;
    });
    return { content: [{ type: 'text', text: JSON.stringify(headers) }] };
  });
  return server;
}

let http: HttpServer | undefined;
let connection: ServerConnection | undefined;
afterEach(async () => {
  await connection?.close();
  connection = undefined;
  http?.closeAllConnections();
  await new Promise((resolveClose) => (http === undefined ? resolveClose(undefined) : http.close(resolveClose)));
  http = undefined;
});

async function connectToHeaderServer(): Promise<ServerConnection> {
  const listener = toNodeHandler(createMcpHandler(() => createHeaderServer(), { legacy: 'reject' }));
  http = createServer((request, response) => void listener(request, response));
  const server = http;
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  connection = new ServerConnection(specOf('headers', { url: `http://127.0.0.1:${port}/mcp` }));
  await connection.connect();
  return connection;
}

test('a tool with an invalid x-mcp-header is left out of the list', async () => {
  const headers = await connectToHeaderServer();
  expect(headers.protocolEra).toBe('modern');
  expect((await headers.listTools()).map((tool) => tool.name)).toEqual(['locate']);
});

test('declared arguments are mirrored into Mcp-Param-* headers; others are not; non-ASCII is Base64', async () => {
  const headers = await connectToHeaderServer();
  await headers.listTools();
  const plain = await headers.callTool('locate', { region: 'us-west1', priority: 3, note: 'body only' });
  expect(JSON.parse(plain.content[0]?.type === 'text' ? plain.content[0].text : '')).toEqual({ 'mcp-param-region': 'us-west1', 'mcp-param-priority': '3' });
  const encoded = await headers.callTool('locate', { region: 'Zürich' });
  expect(JSON.parse(encoded.content[0]?.type === 'text' ? encoded.content[0].text : '')).toEqual({
    'mcp-param-region': `=?base64?${Buffer.from('Zürich').toString('base64')}?=`,
  });
});
