/**
 * Vercel AI SDK `generateText` with the tools of an MCP server. Images the tools return reach the
 * model as images (`toModelOutput`), and `toolset.live` follows `list_changed` between steps.
 *
 *   OPENAI_API_KEY=sk-… npx tsx examples/ai-sdk-generate-text.ts ["prompt"]
 *   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 OPENAI_MODEL=qwen2.5 npx tsx examples/ai-sdk-generate-text.ts
 */
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { MultiServerClient } from 'mcp-switchboard';
import { createAiSdkToolset } from 'mcp-switchboard/ai-sdk';

const client = await MultiServerClient.connect({ mcpServers: { everything: { path: '@modelcontextprotocol/server-everything' } } });
const toolset = createAiSdkToolset(client);
const provider = createOpenAI({ apiKey: process.env.OPENAI_API_KEY ?? 'not-needed', ...(process.env.OPENAI_BASE_URL === undefined ? {} : { baseURL: process.env.OPENAI_BASE_URL }) });
const modelName = process.env.OPENAI_MODEL ?? 'gpt-4o-mini';
// The OpenAI API gets the Responses API (images inside tool results); other servers speak Chat Completions.
const model = process.env.OPENAI_BASE_URL === undefined ? provider(modelName) : provider.chat(modelName);

try {
  const { text, steps } = await generateText({
    model,
    tools: toolset.live,
    stopWhen: stepCountIs(8),
    prompt: process.argv[2] ?? 'Add 2 and 3 with a tool, then describe the tiny image the server can return.',
  });
  for (const step of steps) {
    for (const result of step.toolResults) console.error(`[${result.toolName}] ${JSON.stringify(result.input)}`);
  }
  console.log(text);
} finally {
  toolset.close();
  await client.close();
}
