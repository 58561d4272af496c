/**
 * The seed's end-to-end agent in TypeScript: a LangGraph agent (langchain 1.x `createAgent`) over two
 * MCP servers whose tool names collide, with streamed tokens and tool start/end events, and a line of
 * monitoring per call.
 *
 *   OPENAI_API_KEY=sk-… npx tsx examples/langgraph-agent.ts ["question"]
 *   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=qwen2.5 npx tsx examples/langgraph-agent.ts   # Ollama
 *
 * Both servers are @modelcontextprotocol/server-filesystem (on NOTES_DIR, default demo/sandbox, and on
 * SCRATCH_DIR, default a new temporary folder), so every tool name exists twice; with the
 * default `naming: on-conflict` they are exposed as `notes__read_text_file`, `scratch__write_file`, …
 * and each call is routed to the right server. Tools come from the middleware at every model call,
 * so a server that restarts or changes its tools mid-run needs no new agent.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HumanMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { MultiServerClient } from 'mcp-switchboard';
import { createLangChainToolset, createSwitchboardMiddleware } from 'mcp-switchboard/langchain';

const notes = process.env.NOTES_DIR ?? fileURLToPath(new URL('../demo/sandbox/', import.meta.url));
const scratch = process.env.SCRATCH_DIR ?? (await mkdtemp(join(tmpdir(), 'switchboard-scratch-')));

const client = await MultiServerClient.connect({
  mcpServers: {
    notes: { path: `@modelcontextprotocol/server-filesystem "${notes}"` },
    scratch: { path: `@modelcontextprotocol/server-filesystem "${scratch}"`, timeout: 60 },
  },
});
for (const status of client.status()) if (status.state !== 'ready') console.error(`server ${status.name} is ${status.state}: ${status.error?.message ?? ''}`);
for (const collision of client.catalogReport().tools.collisions) console.error(`name collision: ${collision.name} on ${collision.servers.join(' and ')}`);
// The seed's monitoring decorator, as an event.
client.on('tool-call-end', ({ name, server, durationMs, ok }) => console.error(`[${name}] ${ok ? 'ok' : 'failed'} on ${server} in ${durationMs.toFixed(0)} ms`));

const model = new ChatOpenAI({
  model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
  apiKey: process.env.OPENAI_API_KEY ?? 'not-needed', // local servers take no key
  maxRetries: 2,
  ...(process.env.OPENAI_BASE_URL === undefined ? {} : { configuration: { baseURL: process.env.OPENAI_BASE_URL } }),
});
const toolset = createLangChainToolset(client);
const agent = createAgent({ model, tools: [], middleware: [createSwitchboardMiddleware(toolset, { toolMedia: 'user-message' })] });

const question = process.argv[2] ?? `Read README.md from the notes server, then save a copy of it as ${join(scratch, 'copy.md')} on the scratch server.`;
try {
  for await (const event of agent.streamEvents({ messages: [new HumanMessage(question)] }, { version: 'v2' })) {
    if (event.event === 'on_chat_model_stream') {
      const chunk: unknown = event.data.chunk;
      const text = typeof chunk === 'object' && chunk !== null && 'text' in chunk && typeof chunk.text === 'string' ? chunk.text : '';
      process.stdout.write(text);
    } else if (event.event === 'on_tool_start') {
      console.error(`\n[calling ${event.name} on ${String(event.metadata?.server)}]`);
    } else if (event.event === 'on_tool_end') {
      console.error(`[${event.name} done]`);
    }
  }
  process.stdout.write('\n');
} finally {
  toolset.close();
  await client.close();
}
