import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseFunctionToolCall, ResponseInputItem, ResponseOutputItem, ResponseOutputMessage } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, test } from 'vitest';
import { createOpenAIToolset, type OpenAIToolset } from '../../../src/adapters/openai.js';
import type { MultiServerClient } from '../../../src/client/multi-server-client.js';
import { chatMessages, offeredToolNames, startScriptedOpenAI, type ScriptedOpenAI, type ScriptStep } from '../../fixtures/openai/scripted-openai-server.js';
import { SCHEMA_ZOO, TINY_PNG, connectClient, gatedSink, waitForEvent } from '../../helpers/agents.js';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function setup(servers: Record<string, Record<string, unknown>>, script: ScriptStep[], options: Parameters<typeof createOpenAIToolset>[1] = {}) {
  const client = await connectClient(servers);
  cleanups.push(() => client.close());
  const endpoint = await startScriptedOpenAI({ script });
  cleanups.push(() => endpoint.close());
  const openai = new OpenAI({ apiKey: 'test-key', baseURL: endpoint.baseUrl, maxRetries: 0 });
  const toolset = createOpenAIToolset(client, options);
  cleanups.push(() => toolset.close());
  return { client, endpoint, openai, toolset };
}

/** Output items that go back as input (messages and function calls). */
function isReplayable(item: ResponseOutputItem): item is ResponseOutputMessage | ResponseFunctionToolCall {
  return item.type === 'message' || item.type === 'function_call';
}

/** The plain Chat Completions tool loop every OpenAI SDK user writes. */
async function chatLoop(openai: OpenAI, toolset: OpenAIToolset, messages: ChatCompletionMessageParam[], maxSteps = 5): Promise<string> {
  for (let step = 0; step < maxSteps; step++) {
    const completion = await openai.chat.completions.create({ model: 'scripted-model', messages, tools: toolset.chatCompletionsTools() });
    const message = completion.choices[0]?.message;
    if (message === undefined) throw new Error('no choice');
    messages.push(message);
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return message.content ?? '';
    messages.push(...(await toolset.runChatCompletionsToolCalls(message.tool_calls)));
  }
  throw new Error('too many steps');
}

function toolMessages(endpoint: ScriptedOpenAI, index: number): Array<Record<string, unknown>> {
  const request = endpoint.requests[index];
  if (request === undefined) throw new Error(`no request ${index}`);
  return chatMessages(request).filter((message) => message.role === 'tool');
}

describe('OpenAI adapter (openai SDK against the scripted endpoint, real MCP servers)', () => {
  test('the right tool runs on the right server with the right arguments, across a name collision', async () => {
    const { client, endpoint, openai, toolset } = await setup(
      { alpha: { path: KITCHEN_SINK, args: ['--name', 'alpha'] }, beta: { path: KITCHEN_SINK, args: ['--name', 'beta'] } },
      [{ toolCalls: [{ name: 'beta__echo', arguments: { message: 'hello beta' } }] }, { text: 'beta said hello' }],
    );
    const calls: Array<{ name: string; server: string; originalName: string }> = [];
    client.on('tool-call-start', ({ name, server, originalName }) => calls.push({ name, server, originalName }));
    const answer = await chatLoop(openai, toolset, [{ role: 'user', content: 'ask beta' }]);
    expect(answer).toBe('beta said hello');
    expect(calls).toEqual([{ name: 'beta__echo', server: 'beta', originalName: 'echo' }]);
    expect(offeredToolNames(endpoint.requests[0]!)).toEqual(expect.arrayContaining(['alpha__echo', 'beta__echo']));
    expect(toolMessages(endpoint, 1)).toEqual([{ role: 'tool', tool_call_id: 'call_1', content: 'hello beta' }]);
  });

  test('parallel tool calls run concurrently and answer in call order', async () => {
    const { client, endpoint, openai, toolset } = await setup({ sink: { path: KITCHEN_SINK } }, [
      { toolCalls: [{ name: 'sleep', arguments: { ms: 300 }, id: 'first' }, { name: 'add', arguments: { a: 2, b: 3 }, id: 'second' }] },
      { text: 'done' },
    ]);
    const order: string[] = [];
    client.on('tool-call-start', ({ originalName }) => order.push(`start ${originalName}`));
    client.on('tool-call-end', ({ originalName }) => order.push(`end ${originalName}`));
    await chatLoop(openai, toolset, [{ role: 'user', content: 'go' }]);
    // Both started before either ended: the batch was not run one call after the other.
    expect(order.slice(0, 2).sort()).toEqual(['start add', 'start sleep']);
    expect(order.slice(2)).toEqual(['end add', 'end sleep']);
    expect(toolMessages(endpoint, 1).map((message) => [message.tool_call_id, message.content])).toEqual([
      ['first', 'slept 300 ms'],
      ['second', '5'],
    ]);
  });

  test('Chat Completions: an image result reaches the model as an image part of a user message (tool messages take text only)', async () => {
    const { endpoint, openai, toolset } = await setup({ sink: { path: KITCHEN_SINK } }, [{ toolCalls: [{ name: 'image', id: 'img' }] }, { text: 'a red pixel' }]);
    await chatLoop(openai, toolset, [{ role: 'user', content: 'show me' }]);
    expect(endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    const messages = chatMessages(endpoint.requests[1]!);
    expect(messages.at(-2)).toEqual({ role: 'tool', tool_call_id: 'img', content: '[image image/png, 70 bytes] (attached in the next user message)' });
    expect(messages.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Media returned by the tool calls above:' },
        { type: 'text', text: '[image image/png, 70 bytes] from the call img (image):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG}` } },
      ],
    });
  });

  test('Responses API: tools, a function call, and the image as input_image inside function_call_output', async () => {
    const { endpoint, openai, toolset } = await setup({ sink: { path: KITCHEN_SINK } }, [{ toolCalls: [{ name: 'image', id: 'img' }] }, { text: 'a red pixel' }]);
    const input: ResponseInputItem[] = [{ role: 'user', content: 'show me' }];
    const first = await openai.responses.create({ model: 'scripted-model', input, tools: toolset.responsesTools() });
    input.push(...first.output.filter(isReplayable));
    input.push(...(await toolset.runResponsesToolCalls(first.output)));
    const second = await openai.responses.create({ model: 'scripted-model', input, tools: toolset.responsesTools() });
    expect(second.output_text).toBe('a red pixel');
    expect(endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    const sent = endpoint.requests[1]!.body.input as Array<Record<string, unknown>>;
    expect(sent.at(-1)).toEqual({ type: 'function_call_output', call_id: 'img', output: [{ type: 'input_image', image_url: `data:image/png;base64,${TINY_PNG}`, detail: 'auto' }] });
  });

  test('schemas OpenAI rejects (top-level anyOf/allOf, $defs, recursion) are sent provider-safe; the server gets the arguments as the model sent them', async () => {
    const { client, endpoint, openai, toolset } = await setup({ zoo: { path: SCHEMA_ZOO } }, [
      { toolCalls: [{ name: 'open_item', arguments: { id: 7 } }, { name: 'assign', arguments: { ticket: 'T-1', owner: { name: 'ana' } } }] },
      { text: 'ok' },
    ]);
    // The defect this fixes: the raw MCP schemas as function parameters get a 400 from OpenAI.
    const raw = client.listTools().map((tool) => ({ type: 'function' as const, function: { name: tool.name, parameters: tool.inputSchema } }));
    await expect(openai.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'x' }], tools: raw })).rejects.toThrow(
      /Invalid schema for function 'open_item'/,
    );
    endpoint.requests.length = 0;
    await chatLoop(openai, toolset, [{ role: 'user', content: 'open item 7 and assign T-1 to ana' }]);
    expect(endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    expect(offeredToolNames(endpoint.requests[0]!)).toEqual(['open_item', 'assign', 'make_tree', 'merge_all', 'search']);
    expect(toolMessages(endpoint, 1).map((message) => message.content)).toEqual(['open_item got {"id":7}', 'assign got {"ticket":"T-1","owner":{"name":"ana"}}']);
  });

  test('arguments that break the original schema are refused before the server, and the model is told why', async () => {
    const { endpoint, openai, toolset } = await setup({ zoo: { path: SCHEMA_ZOO } }, [{ toolCalls: [{ name: 'open_item', arguments: {} }] }, { text: 'sorry' }]);
    await chatLoop(openai, toolset, [{ role: 'user', content: 'open something' }]);
    const [message] = toolMessages(endpoint, 1);
    expect(message?.content).toMatch(/^Error: Tool "open_item" on server "zoo" was not called: invalid arguments: .*anyOf/);
  });

  test('strict mode: strict definitions where the schema allows, and the nulls the model sends for optional fields never reach the server', async () => {
    const { endpoint, openai, toolset } = await setup({ zoo: { path: SCHEMA_ZOO } }, [
      { toolCalls: [{ name: 'search', arguments: { query: 'mcp', limit: null, tag: null } }] },
      { text: 'found' },
    ], { strict: true });
    await chatLoop(openai, toolset, [{ role: 'user', content: 'search mcp' }]);
    const tools = endpoint.requests[0]!.body.tools as Array<{ function: { name: string; strict: boolean } }>;
    expect(Object.fromEntries(tools.map((tool) => [tool.function.name, tool.function.strict]))).toEqual({
      open_item: true,
      assign: true,
      make_tree: false, // recursive
      merge_all: true,
      search: true,
    });
    expect(endpoint.requests[0]!.rejected).toBeUndefined();
    expect(toolMessages(endpoint, 1)[0]?.content).toBe('search got {"query":"mcp"}');
  });

  test('tool errors, unknown tools and broken arguments become tool messages, not exceptions', async () => {
    const { endpoint, openai, toolset } = await setup({ sink: { path: KITCHEN_SINK } }, [
      { toolCalls: [{ name: 'fail', arguments: { reason: 'disk full' } }, { name: 'nope' }, { name: 'echo', arguments: '{"message": ' }] },
      { text: 'handled' },
    ]);
    expect(await chatLoop(openai, toolset, [{ role: 'user', content: 'go' }])).toBe('handled');
    const contents = toolMessages(endpoint, 1).map((message) => String(message.content));
    expect(contents[0]).toBe('Error: failed: disk full');
    expect(contents[1]).toMatch(/^Error: There is no tool named "nope"/);
    expect(contents[2]).toMatch(/^Error: The arguments of echo are not a JSON object/);
  });

  test('a tool added by list_changed is offered on the next request', async () => {
    const { client, endpoint, openai, toolset } = await setup({ sink: { path: KITCHEN_SINK } }, [
      { toolCalls: [{ name: 'add_tool', arguments: { name: 'fresh' } }] },
      { text: 'added' },
      { toolCalls: [{ name: 'fresh', arguments: { x: 'hi' } }] },
      { text: 'fresh said hi' },
    ]);
    const changed = waitForEvent(client, 'tools-changed', (change) => change.added.includes('fresh'));
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'add a tool' }];
    await chatLoop(openai, toolset, messages);
    await changed;
    messages.push({ role: 'user', content: 'use it' });
    expect(await chatLoop(openai, toolset, messages)).toBe('fresh said hi');
    expect(offeredToolNames(endpoint.requests[0]!)).not.toContain('fresh');
    expect(offeredToolNames(endpoint.requests[2]!)).toContain('fresh');
    expect(toolMessages(endpoint, 3).at(-1)?.content).toBe('fresh says hi');
  });

  test('a server killed mid-conversation is a tool error the model sees; the same toolset works after the restart', async () => {
    const gate = gatedSink();
    cleanups.push(() => gate.cleanup());
    const { client, endpoint, openai, toolset } = await setup({ sink: gate.entry }, [
      { toolCalls: [{ name: 'echo', arguments: { message: 'one' } }] },
      { text: 'one' },
      { toolCalls: [{ name: 'echo', arguments: { message: 'two' } }] },
      { text: 'the server is down' },
      { toolCalls: [{ name: 'echo', arguments: { message: 'three' } }] },
      { text: 'three' },
    ]);
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'echo one' }];
    await chatLoop(openai, toolset, messages);
    await gate.killAndHold(client, 'sink');
    messages.push({ role: 'user', content: 'echo two' });
    expect(await chatLoop(openai, toolset, messages)).toBe('the server is down');
    expect(toolMessages(endpoint, 3).at(-1)?.content).toMatch(/^Error: Tool "echo" belongs to server "sink", which is (failed|connecting|reconnecting)\b.*Retrying may help/);
    const back = waitForEvent(client, 'tools-changed', (change) => change.reason === 'server-up');
    gate.open();
    await back;
    messages.push({ role: 'user', content: 'echo three' });
    expect(await chatLoop(openai, toolset, messages)).toBe('three');
    expect(toolMessages(endpoint, 5).at(-1)?.content).toBe('three');
  });

  test('a cancelled batch rejects instead of telling the model', async () => {
    const { toolset } = await setup({ sink: { path: KITCHEN_SINK } }, []);
    const abort = new AbortController();
    const running = toolset.runChatCompletionsToolCalls([{ id: 'a', type: 'function', function: { name: 'sleep', arguments: '{"ms": 5000}' } }], { signal: abort.signal });
    abort.abort();
    await expect(running).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
  });
});
