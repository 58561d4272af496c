import { createOpenAI } from '@ai-sdk/openai';
import { dynamicTool, generateText, jsonSchema, stepCountIs, streamText, type ModelMessage } from 'ai';
import { afterEach, describe, expect, test } from 'vitest';
import { createAiSdkToolset, type AiSdkToolset } from '../../../src/adapters/ai-sdk.js';
import type { MultiServerClient } from '../../../src/client/multi-server-client.js';
import { chatMessages, offeredToolNames, startScriptedOpenAI, type ScriptedOpenAI, type ScriptStep } from '../../fixtures/openai/scripted-openai-server.js';
import { SCHEMA_ZOO, TINY_PNG, connectClient, gatedSink, waitForEvent } from '../../helpers/agents.js';
import { KITCHEN_SINK } from '../../helpers/fixtures.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

interface Setup {
  client: MultiServerClient;
  endpoint: ScriptedOpenAI;
  toolset: AiSdkToolset;
  provider: ReturnType<typeof createOpenAI>;
}

async function setup(servers: Record<string, Record<string, unknown>>, script: ScriptStep[]): Promise<Setup> {
  const client = await connectClient(servers);
  cleanups.push(() => client.close());
  const endpoint = await startScriptedOpenAI({ script });
  cleanups.push(() => endpoint.close());
  const toolset = createAiSdkToolset(client);
  cleanups.push(() => toolset.close());
  return { client, endpoint, toolset, provider: createOpenAI({ baseURL: endpoint.baseUrl, apiKey: 'test-key' }) };
}

function functionCallOutputs(endpoint: ScriptedOpenAI, index: number): Array<Record<string, unknown>> {
  const input = endpoint.requests[index]?.body.input;
  return (Array.isArray(input) ? input : []).filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && (item as Record<string, unknown>).type === 'function_call_output');
}

function toolMessages(endpoint: ScriptedOpenAI, index: number): Array<Record<string, unknown>> {
  const request = endpoint.requests[index];
  if (request === undefined) throw new Error(`no request ${index}`);
  return chatMessages(request).filter((message) => message.role === 'tool');
}

describe('AI SDK adapter (generateText + @ai-sdk/openai against the scripted endpoint, real MCP servers)', () => {
  test('images reach the model as images through toModelOutput (Responses API), not as JSON text', async () => {
    const { endpoint, toolset, provider, client } = await setup({ sink: { path: KITCHEN_SINK } }, [
      { toolCalls: [{ name: 'image', id: 'img' }] },
      { text: 'a red pixel' },
      { toolCalls: [{ name: 'image', id: 'img2' }] },
      { text: 'a red pixel' },
    ]);
    const { text } = await generateText({ model: provider('scripted-model'), tools: toolset.tools, stopWhen: stepCountIs(3), prompt: 'show me' });
    expect(text).toBe('a red pixel');
    expect(endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    expect(functionCallOutputs(endpoint, 1)).toEqual([
      { type: 'function_call_output', call_id: 'img', output: [{ type: 'input_image', image_url: `data:image/png;base64,${TINY_PNG}` }] },
    ]);

    // The defect it fixes: a tool that hands the MCP result to the AI SDK as is sends the image as JSON text.
    const naive = dynamicTool({ inputSchema: jsonSchema({ type: 'object', properties: {} }), execute: () => client.callTool('image', {}) });
    await generateText({ model: provider('scripted-model'), tools: { image: naive }, stopWhen: stepCountIs(3), prompt: 'show me' });
    const [output] = functionCallOutputs(endpoint, 3);
    expect(typeof output?.output).toBe('string');
    expect(String(output?.output)).toContain(TINY_PNG);
  });

  test('streamText on the Responses API: text deltas, the tool call and its result, in order', async () => {
    const { endpoint, toolset, provider } = await setup({ sink: { path: KITCHEN_SINK } }, [
      { text: 'Adding. ', toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] },
      { text: 'The sum is 5.' },
    ]);
    const result = streamText({ model: provider('scripted-model'), tools: toolset.tools, stopWhen: stepCountIs(3), prompt: 'add 2 and 3' });
    const kinds: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        if (kinds.at(-1) !== 'text') kinds.push('text');
      } else if (part.type === 'tool-call' || part.type === 'tool-result') kinds.push(`${part.type} ${part.toolName}`);
    }
    expect(kinds).toEqual(['text', 'tool-call add', 'tool-result add', 'text']);
    expect(await result.text).toBe('The sum is 5.');
    expect(endpoint.requests.map((request) => [request.api, request.stream, request.rejected])).toEqual([
      ['responses', true, undefined],
      ['responses', true, undefined],
    ]);
    expect(functionCallOutputs(endpoint, 1)[0]?.output).toBe('5');
  });

  test('the right tool runs on the right server with the right arguments, across a name collision (Chat Completions)', async () => {
    const { client, endpoint, toolset, provider } = await setup(
      { alpha: { path: KITCHEN_SINK, args: ['--name', 'alpha'] }, beta: { path: KITCHEN_SINK, args: ['--name', 'beta'] } },
      [{ toolCalls: [{ name: 'alpha__echo', arguments: { message: 'hi alpha' } }, { name: 'beta__add', arguments: { a: 2, b: 3 } }] }, { text: 'done' }],
    );
    const calls: string[] = [];
    client.on('tool-call-start', ({ server, originalName }) => calls.push(`${server}/${originalName}`));
    const result = await generateText({ model: provider.chat('scripted-model'), tools: toolset.tools, stopWhen: stepCountIs(3), prompt: 'go' });
    expect(result.text).toBe('done');
    expect(calls.sort()).toEqual(['alpha/echo', 'beta/add']);
    expect(toolMessages(endpoint, 1).map((message) => message.content)).toEqual(['hi alpha', '5']);
    expect(result.steps[0]?.toolResults.map((toolResult) => toolResult.output)).toEqual([
      { isError: false, content: [{ type: 'text', text: 'hi alpha' }] },
      { isError: false, content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } },
    ]);
  });

  test('isError results and failed calls reach the model as tool errors; the run does not throw', async () => {
    const { endpoint, toolset, provider } = await setup({ sink: { path: KITCHEN_SINK }, zoo: { path: SCHEMA_ZOO } }, [
      { toolCalls: [{ name: 'fail', arguments: { reason: 'disk full' } }, { name: 'open_item', arguments: {} }] },
      { text: 'both failed' },
    ]);
    const result = await generateText({ model: provider('scripted-model'), tools: toolset.tools, stopWhen: stepCountIs(3), prompt: 'go' });
    expect(result.text).toBe('both failed');
    const outputs = functionCallOutputs(endpoint, 1).map((item) => String(item.output));
    expect(outputs[0]).toBe('failed: disk full');
    expect(outputs[1]).toMatch(/Tool "open_item" on server "zoo" was not called: invalid arguments/);
  });

  test('schemas with top-level anyOf/allOf and $defs are accepted; arguments reach the server as sent', async () => {
    const { endpoint, toolset, provider } = await setup({ zoo: { path: SCHEMA_ZOO } }, [{ toolCalls: [{ name: 'open_item', arguments: { path: '/a' } }] }, { text: 'opened' }]);
    expect((await generateText({ model: provider('scripted-model'), tools: toolset.tools, stopWhen: stepCountIs(3), prompt: 'open /a' })).text).toBe('opened');
    expect(endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    expect(functionCallOutputs(endpoint, 1)[0]?.output).toBe('open_item got {"path":"/a"}');
  });

  test('the live tool set offers a tool added by list_changed on the next turn', async () => {
    const { client, endpoint, toolset, provider } = await setup({ sink: { path: KITCHEN_SINK } }, [
      { toolCalls: [{ name: 'add_tool', arguments: { name: 'fresh' } }] },
      { text: 'added' },
      { toolCalls: [{ name: 'fresh', arguments: { x: 'hi' } }] },
      { text: 'fresh said hi' },
    ]);
    const tools = toolset.live; // handed over once, like an agent does
    const changed = waitForEvent(client, 'tools-changed', (change) => change.added.includes('fresh'));
    const messages: ModelMessage[] = [{ role: 'user', content: 'add a tool' }];
    const first = await generateText({ model: provider.chat('scripted-model'), tools, stopWhen: stepCountIs(3), messages });
    messages.push(...first.response.messages);
    await changed;
    messages.push({ role: 'user', content: 'use it' });
    const second = await generateText({ model: provider.chat('scripted-model'), tools, stopWhen: stepCountIs(3), messages });
    expect(second.text).toBe('fresh said hi');
    expect(offeredToolNames(endpoint.requests[0]!)).not.toContain('fresh');
    expect(offeredToolNames(endpoint.requests[2]!)).toContain('fresh');
    expect(toolMessages(endpoint, 3).at(-1)?.content).toBe('fresh says hi');
  });

  test('a server killed mid-conversation is a tool error the model sees; the same tools work after the restart', async () => {
    const gate = gatedSink();
    cleanups.push(() => gate.cleanup());
    const { client, endpoint, toolset, provider } = await setup({ sink: gate.entry }, [
      { toolCalls: [{ name: 'echo', arguments: { message: 'one' } }] },
      { text: 'one' },
      { toolCalls: [{ name: 'echo', arguments: { message: 'two' } }] },
      { text: 'the server is down' },
      { toolCalls: [{ name: 'echo', arguments: { message: 'three' } }] },
      { text: 'three' },
    ]);
    const tools = toolset.live;
    const ask = async (prompt: string): Promise<string> => (await generateText({ model: provider.chat('scripted-model'), tools, stopWhen: stepCountIs(3), prompt })).text;
    expect(await ask('echo one')).toBe('one');
    await gate.killAndHold(client, 'sink');
    expect(await ask('echo two')).toBe('the server is down');
    expect(String(toolMessages(endpoint, 3).at(-1)?.content)).toMatch(/Tool \\?"echo\\?" belongs to server \\?"sink\\?", which is (failed|connecting|reconnecting)\b.*Retrying may help/);
    const back = waitForEvent(client, 'tools-changed', (change) => change.reason === 'server-up');
    gate.open();
    await back;
    expect(await ask('echo three')).toBe('three');
    expect(toolMessages(endpoint, 5).at(-1)?.content).toBe('three');
  });
});
