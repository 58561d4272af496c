#!/usr/bin/env node
// What each agent adapter adds to a tool call, and what a provider-safe schema costs to compute.
// Real servers over stdio (kitchen-sink, schema-zoo, server-everything, server-filesystem); 5 rounds of
// 1000 echo calls per case, interleaved, median reported (the machine is shared: expect noise).
//
//   npm run build && node bench/adapter-overhead.mjs
import { MultiServerClient } from 'mcp-switchboard';
import { createLangChainToolset } from 'mcp-switchboard/langchain';
import { createOpenAIToolset, toProviderSchema } from 'mcp-switchboard/openai';
import { createAiSdkTools } from 'mcp-switchboard/ai-sdk';
const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const client = await MultiServerClient.connect({ mcpServers: {
  sink: { path: `${root}/test/fixtures/servers/kitchen-sink-server.mjs` },
  zoo: { path: `${root}/test/fixtures/servers/schema-zoo-server.mjs` },
  everything: { command: `${root}/node_modules/.bin/mcp-server-everything` },
  fs: { command: `${root}/node_modules/.bin/mcp-server-filesystem`, args: [`${root}/demo/sandbox`] },
} });
const tools = client.listTools();
// schema conversion (uncached: fresh schema objects)
let t = performance.now(); const N = 200;
for (let i = 0; i < N; i++) for (const tool of tools) toProviderSchema(structuredClone(tool.inputSchema), { strict: true });
console.log(`toProviderSchema strict: ${tools.length} tools x ${N}: ${((performance.now() - t) / (N * tools.length) * 1000).toFixed(1)} µs/schema`);
const calls = 1000;
const lc = createLangChainToolset(client).getTool('sink__echo');
const oa = createOpenAIToolset(client);
const ai = createAiSdkTools(client)['sink__echo'];
const cases = {
  'client.callTool': () => client.callTool('sink__echo', { message: 'x' }),
  'LangChain invoke(toolCall)': () => lc.invoke({ id: 'a', name: 'sink__echo', args: { message: 'x' }, type: 'tool_call' }),
  'OpenAI runChatCompletionsToolCalls': () => oa.runChatCompletionsToolCalls([{ id: 'a', type: 'function', function: { name: 'sink__echo', arguments: '{"message":"x"}' } }]),
  'AI SDK execute': () => ai.execute({ message: 'x' }, { toolCallId: 'a', messages: [] }),
};
const results = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < 5; round++) for (const [k, fn] of Object.entries(cases)) { for (let i = 0; i < 100; i++) await fn(); const s0 = performance.now(); for (let i = 0; i < calls; i++) await fn(); results[k].push((performance.now() - s0) / calls * 1000); }
const median = (a) => [...a].sort((x, y) => x - y)[2];
for (const [k, v] of Object.entries(results)) console.log(`${k}: median ${median(v).toFixed(0)} µs/call (rounds ${v.map((x) => x.toFixed(0)).join(' ')})`);
await client.close();
