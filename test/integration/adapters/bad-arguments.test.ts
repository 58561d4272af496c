/**
 * Bad arguments from a model, through every adapter (issue 15, defect 3): the model gets the
 * library's INVALID_ARGUMENT message — which field, what is wrong — and nothing else: no stack
 * lines, no local paths. Real adapters, real server-everything, the scripted OpenAI endpoint.
 */
import { createOpenAI } from '@ai-sdk/openai';
import { HumanMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { generateText, stepCountIs } from 'ai';
import { createAgent } from 'langchain';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { createAiSdkToolset } from '../../../src/adapters/ai-sdk.js';
import { createLangChainToolset, createSwitchboardMiddleware } from '../../../src/adapters/langchain.js';
import { createOpenAIToolset } from '../../../src/adapters/openai.js';
import type { MultiServerClient } from '../../../src/client/multi-server-client.js';
import { isSwitchboardError } from '../../../src/errors.js';
import { chatMessages, startScriptedOpenAI, type ScriptedOpenAI } from '../../fixtures/openai/scripted-openai-server.js';
import { connectClient } from '../../helpers/agents.js';
import { ROOT, bin } from '../../helpers/fixtures.js';

/** What `client.callTool('get-sum', { a: 1 })` rejects with: the text every adapter must hand the model. */
const INVALID_SUM = 'Tool "get-sum" on server "everything" was not called: invalid arguments: `b` is required but missing. Fix the arguments and call again.';

let client: MultiServerClient;
let cleanups: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  client = await connectClient({ everything: { command: bin('mcp-server-everything') } });
});
afterAll(async () => {
  await client?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

/** The scripted model calls get-sum with only `a`, then answers. */
async function scriptedModel(): Promise<ScriptedOpenAI> {
  const endpoint = await startScriptedOpenAI({ script: [{ toolCalls: [{ name: 'get-sum', id: 'sum1', arguments: { a: 1 } }] }, { text: 'I need b.' }] });
  cleanups.push(() => endpoint.close());
  return endpoint;
}

/** What the model was told about its call (the tool message of the second request). */
function toolMessageText(endpoint: ScriptedOpenAI): string {
  const request = endpoint.requests[1];
  if (request === undefined) throw new Error('the model was not asked again after the tool call');
  const message = chatMessages(request).find((entry) => entry.role === 'tool');
  const content = message?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

function expectActionable(text: string): void {
  expect(text).toContain(INVALID_SUM);
  expect(text).not.toMatch(/\n\s+at /);
  expect(text).not.toContain(ROOT);
  expect(text).not.toMatch(/node_modules|file:\/\/|did not match expected schema/);
}

describe('a call with bad arguments tells the model which field is wrong, in every adapter', () => {
  test('the library itself', async () => {
    await expect(client.callTool('get-sum', { a: 1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: INVALID_SUM });
  });

  test('LangChain: createAgent + middleware (as `switchboard chat`), with tool start and end events', async () => {
    const endpoint = await scriptedModel();
    const toolset = createLangChainToolset(client);
    cleanups.push(() => toolset.close());
    const model = new ChatOpenAI({ model: 'scripted-model', apiKey: 'test-key', configuration: { baseURL: endpoint.baseUrl }, maxRetries: 0 });
    const agent = createAgent({ model, tools: [], middleware: [createSwitchboardMiddleware(toolset)] });
    const events: string[] = [];
    for await (const event of agent.streamEvents({ messages: [new HumanMessage('add 1 and something')] }, { version: 'v2' })) {
      if (event.event === 'on_tool_start' || event.event === 'on_tool_end' || event.event === 'on_tool_error') events.push(`${event.event} ${event.name}`);
    }
    expect(events).toEqual(['on_tool_start get-sum', 'on_tool_end get-sum']);
    expectActionable(toolMessageText(endpoint));
  });

  test('LangChain: tools given to createAgent directly, and a tool invoked with plain arguments', async () => {
    const endpoint = await scriptedModel();
    const toolset = createLangChainToolset(client);
    cleanups.push(() => toolset.close());
    const model = new ChatOpenAI({ model: 'scripted-model', apiKey: 'test-key', configuration: { baseURL: endpoint.baseUrl }, maxRetries: 0 });
    const agent = createAgent({ model, tools: toolset.tools });
    const state = await agent.invoke({ messages: [new HumanMessage('add 1 and something')] });
    expect(state.messages.at(-1)?.text).toBe('I need b.');
    expectActionable(toolMessageText(endpoint));
    // Without a tool call there is no message to return: the client's error is thrown as it is.
    const error: unknown = await toolset.getTool('get-sum')?.invoke({ a: 1 }).catch((thrown: unknown) => thrown);
    expect(isSwitchboardError(error) ? { code: error.code, message: error.message } : error).toEqual({ code: 'INVALID_ARGUMENT', message: INVALID_SUM });
  });

  test('AI SDK: generateText (Chat Completions)', async () => {
    const endpoint = await scriptedModel();
    const toolset = createAiSdkToolset(client);
    cleanups.push(() => toolset.close());
    const provider = createOpenAI({ baseURL: endpoint.baseUrl, apiKey: 'test-key' });
    const result = await generateText({ model: provider.chat('scripted-model'), tools: toolset.tools, stopWhen: stepCountIs(3), prompt: 'add 1 and something' });
    expect(result.text).toBe('I need b.');
    expectActionable(toolMessageText(endpoint));
  });

  test('OpenAI: the tool-call executor', async () => {
    const endpoint = await scriptedModel();
    const toolset = createOpenAIToolset(client);
    cleanups.push(() => toolset.close());
    const openai = new OpenAI({ apiKey: 'test-key', baseURL: endpoint.baseUrl, maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'add 1 and something' }];
    const completion = await openai.chat.completions.create({ model: 'scripted-model', messages, tools: toolset.chatCompletionsTools() });
    const message = completion.choices[0]?.message;
    if (message === undefined) throw new Error('no choice');
    messages.push(message, ...(await toolset.runChatCompletionsToolCalls(message.tool_calls)));
    await openai.chat.completions.create({ model: 'scripted-model', messages, tools: toolset.chatCompletionsTools() });
    expectActionable(toolMessageText(endpoint));
  });
});
