/**
 * The OpenAI SDK tool loop over two MCP servers: Chat Completions with every tool, the model's tool
 * calls run concurrently by the switchboard, results appended as tool messages (images in a user
 * message after them, since tool messages take text only), until the model answers.
 *
 *   OPENAI_API_KEY=sk-… npx tsx examples/openai-tool-loop.ts ["question"]
 *   OPENAI_BASE_URL=http://127.0.0.1:8080/v1 npx tsx examples/openai-tool-loop.ts   # llama.cpp server
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { MultiServerClient } from 'mcp-switchboard';
import { createOpenAIToolset } from 'mcp-switchboard/openai';

const MAX_STEPS = 8;

const client = await MultiServerClient.connect({
  mcpServers: {
    everything: { path: '@modelcontextprotocol/server-everything' },
    memory: { path: '@modelcontextprotocol/server-memory', env: { MEMORY_FILE_PATH: process.env.MEMORY_FILE_PATH ?? join(tmpdir(), 'switchboard-example-memory.jsonl') } },
  },
});
const toolset = createOpenAIToolset(client, { strict: true });
const openai = new OpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'not-needed', ...(process.env.OPENAI_BASE_URL === undefined ? {} : { baseURL: process.env.OPENAI_BASE_URL }) });
const model = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';

const messages: ChatCompletionMessageParam[] = [
  { role: 'user', content: process.argv[2] ?? 'Remember that Ada Lovelace wrote the first program, and add 2 and 3. Then tell me what you did.' },
];
try {
  for (let step = 0; step < MAX_STEPS; step++) {
    const completion = await openai.chat.completions.create({ model, messages, tools: toolset.chatCompletionsTools() });
    const message = completion.choices[0]?.message;
    if (message === undefined) break;
    messages.push(message);
    if (message.tool_calls === undefined || message.tool_calls.length === 0) {
      console.log(message.content ?? '');
      break;
    }
    for (const call of message.tool_calls) if (call.type === 'function') console.error(`[${call.function.name}] ${call.function.arguments}`);
    messages.push(...(await toolset.runChatCompletionsToolCalls(message.tool_calls)));
  }
} finally {
  toolset.close();
  await client.close();
}
