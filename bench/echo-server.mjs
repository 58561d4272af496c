#!/usr/bin/env node
/**
 * The benchmark's upstream: an SDK v1 (1.32.2) `McpServer` over stdio, the same kind of server the
 * baseline in shared/research/perf-baseline.md used, so the figures stay comparable.
 *
 * Tools: `echo {text}` (returns the text), `sleep {ms}`, `notify_tools_changed` (sends
 * `notifications/tools/list_changed`, used to time a catalog refresh), and with `--extra-tools N`
 * N dummy tools with 3-property schemas. `--cache-list` memoizes the `tools/list` answer: without it
 * the server spends ~35 ms per 1,000-tool listing converting zod to JSON Schema, which hides the client.
 */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const argv = process.argv.slice(2);
const extraIndex = argv.indexOf('--extra-tools');
const extraTools = extraIndex === -1 ? 0 : Number(argv[extraIndex + 1]);
const cacheList = argv.includes('--cache-list');

// The SDK v1 server adds a drain listener per message when the pipe is full (100 KB echoes at 64 in flight).
process.stdout.setMaxListeners(0);

const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });

server.registerTool('echo', { description: 'Echoes the text back.', inputSchema: { text: z.string() } }, async ({ text }) => ({
  content: [{ type: 'text', text }],
}));

server.registerTool('sleep', { description: 'Answers after `ms` milliseconds.', inputSchema: { ms: z.number() } }, async ({ ms }) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { content: [{ type: 'text', text: `slept ${ms} ms` }] };
});

server.registerTool('notify_tools_changed', { description: 'Sends notifications/tools/list_changed.' }, async () => {
  server.sendToolListChanged();
  return { content: [{ type: 'text', text: 'sent' }] };
});

for (let index = 0; index < extraTools; index++) {
  server.registerTool(
    `extra_tool_${index}`,
    {
      description: `Dummy tool number ${index}, present only to make the tool list long.`,
      inputSchema: { query: z.string().describe('What to look for'), limit: z.number().int().optional(), verbose: z.boolean().optional() },
    },
    async () => ({ content: [{ type: 'text', text: String(index) }] }),
  );
}

if (cacheList) {
  // McpServer keeps its handlers in the inner Server's map; wrap the tools/list one with a memo.
  const handlers = server.server._requestHandlers;
  const original = handlers.get('tools/list');
  let cached;
  handlers.set('tools/list', async (request, extra) => (cached ??= await original(request, extra)));
}

await server.connect(new StdioServerTransport());
