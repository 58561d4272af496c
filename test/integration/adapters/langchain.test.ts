import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { afterEach, describe, expect, test } from 'vitest';
import { createLangChainToolset, createSwitchboardMiddleware, type LangChainToolset } from '../../../src/adapters/langchain.js';
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
  toolset: LangChainToolset;
  model: ChatOpenAI;
}

async function setup(servers: Record<string, Record<string, unknown>>, script: ScriptStep[]): Promise<Setup> {
  const client = await connectClient(servers);
  cleanups.push(() => client.close());
  const endpoint = await startScriptedOpenAI({ script });
  cleanups.push(() => endpoint.close());
  const toolset = createLangChainToolset(client);
  cleanups.push(() => toolset.close());
  // No `streaming: true`: with it, ChatOpenAI.invoke estimates token counts with a tiktoken encoder it
  // downloads, which hangs offline. Runs under streamEvents stream anyway (see the first test).
  const model = new ChatOpenAI({ model: 'scripted-model', apiKey: 'test-key', configuration: { baseURL: endpoint.baseUrl }, maxRetries: 0 });
  return { client, endpoint, toolset, model };
}

/** The agent `switchboard chat` builds: tools come from the middleware at each model call. */
function agentOf({ model, toolset }: Setup) {
  return createAgent({ model, tools: [], middleware: [createSwitchboardMiddleware(toolset, { toolMedia: 'user-message' })] });
}

async function turn(agent: ReturnType<typeof agentOf>, history: BaseMessage[], question: string): Promise<string> {
  history.push(new HumanMessage(question));
  const state = await agent.invoke({ messages: history });
  history.splice(0, history.length, ...state.messages);
  return state.messages.at(-1)?.text ?? '';
}

function lastToolMessage(endpoint: ScriptedOpenAI, index: number): Record<string, unknown> | undefined {
  const request = endpoint.requests[index];
  if (request === undefined) throw new Error(`no request ${index}`);
  return chatMessages(request).filter((message) => message.role === 'tool').at(-1);
}

describe('LangChain / LangGraph adapter (createAgent + ChatOpenAI against the scripted endpoint, real MCP servers)', () => {
  test('streamed events come in order — tokens, tool start, tool end, answer tokens — and the right tool runs on the right server', async () => {
    const context = await setup({ alpha: { path: KITCHEN_SINK, args: ['--name', 'alpha'] }, beta: { path: KITCHEN_SINK, args: ['--name', 'beta'] } }, [
      { text: 'Asking beta. ', toolCalls: [{ name: 'beta__echo', arguments: { message: 'hello beta' } }] },
      { text: 'Beta answered: hello beta.' },
    ]);
    const calls: Array<{ server: string; originalName: string }> = [];
    context.client.on('tool-call-start', ({ server, originalName }) => calls.push({ server, originalName }));
    const events: string[] = [];
    let answer = '';
    let toolStartMetadata: unknown;
    let toolEndOutput: unknown;
    for await (const event of agentOf(context).streamEvents({ messages: [new HumanMessage('ask beta')] }, { version: 'v2' })) {
      if (event.event === 'on_chat_model_stream') {
        const text = (event.data.chunk as { text?: string }).text ?? '';
        if (text === '') continue;
        if (events.at(-1) !== 'token') events.push('token');
        answer += text;
      } else if (event.event === 'on_tool_start') {
        events.push(`tool-start ${event.name}`);
        toolStartMetadata = event.metadata;
      } else if (event.event === 'on_tool_end') {
        events.push(`tool-end ${event.name}`);
        toolEndOutput = event.data.output;
      }
    }
    expect(events).toEqual(['token', 'tool-start beta__echo', 'tool-end beta__echo', 'token']);
    expect(answer).toBe('Asking beta. Beta answered: hello beta.');
    expect(calls).toEqual([{ server: 'beta', originalName: 'echo' }]);
    expect(toolStartMetadata).toMatchObject({ server: 'beta', originalName: 'echo' });
    expect(toolEndOutput).toBeInstanceOf(ToolMessage);
    expect((toolEndOutput as ToolMessage).content).toBe('hello beta');
    expect(context.endpoint.requests.every((request) => request.stream)).toBe(true);
    expect(lastToolMessage(context.endpoint, 1)).toMatchObject({ role: 'tool', content: 'hello beta' });
  });

  test('an image result reaches the model request as an image part', async () => {
    const context = await setup({ sink: { path: KITCHEN_SINK } }, [{ toolCalls: [{ name: 'image', id: 'img' }] }, { text: 'a red pixel' }]);
    expect(await turn(agentOf(context), [], 'show me')).toBe('a red pixel');
    expect(context.endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    const messages = chatMessages(context.endpoint.requests[1]!);
    expect(messages.at(-2)).toMatchObject({ role: 'tool', tool_call_id: 'img' });
    expect(JSON.stringify(messages.at(-2))).not.toContain(TINY_PNG);
    expect(messages.at(-1)).toMatchObject({ role: 'user', content: expect.arrayContaining([{ type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG}` } }]) });
  });

  test('every content type maps to standard blocks; the ToolResult is the artifact', async () => {
    const { toolset } = await setup({ sink: { path: KITCHEN_SINK } }, []);
    const message = await toolset.getTool('mixed')!.invoke({ id: 'm1', name: 'mixed', args: {}, type: 'tool_call' });
    expect(message).toBeInstanceOf(ToolMessage);
    const tool = message as ToolMessage;
    expect(tool.status).toBe('success');
    expect(tool.contentBlocks.map((block) => block.type)).toEqual(['text', 'image', 'audio', 'text', 'text', 'text']);
    expect(tool.contentBlocks[1]).toMatchObject({ type: 'image', data: TINY_PNG, mimeType: 'image/png' });
    expect(tool.contentBlocks[2]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    expect(tool.contentBlocks[3]).toMatchObject({ type: 'text', text: '[resource memo://one (text/plain)]\nembedded text' });
    expect(tool.contentBlocks[4]).toMatchObject({ type: 'text', text: '[resource link memo://two (two, text/plain)]' });
    expect(tool.artifact).toMatchObject({ isError: false, structuredContent: { items: 6 } });
    // Invoked with plain arguments, a tool returns its content.
    expect(await toolset.getTool('echo')!.invoke({ message: 'plain' })).toBe('plain');
  });

  test('a result with isError is an error ToolMessage the model reads, not an exception; so is a call that cannot run', async () => {
    const context = await setup({ zoo: { path: SCHEMA_ZOO }, sink: { path: KITCHEN_SINK } }, [
      { toolCalls: [{ name: 'fail', arguments: { reason: 'disk full' } }, { name: 'open_item', arguments: {} }] },
      { text: 'both failed' },
    ]);
    const failed = await context.toolset.getTool('fail')!.invoke({ id: 'f', name: 'fail', args: { reason: 'x' }, type: 'tool_call' });
    expect(failed).toMatchObject({ status: 'error', content: 'failed: x' });
    expect(await turn(agentOf(context), [], 'go')).toBe('both failed');
    const toolMessages = chatMessages(context.endpoint.requests[1]!).filter((message) => message.role === 'tool');
    expect(toolMessages.map((message) => message.content)).toEqual([
      'failed: disk full',
      // The provider-safe schema let {} through; the original anyOf refused it before the server.
      expect.stringMatching(/^Tool "open_item" on server "zoo" was not called: invalid arguments/),
    ]);
  });

  test('schemas with top-level anyOf and $defs are sent provider-safe (OpenAI would reject the originals)', async () => {
    const context = await setup({ zoo: { path: SCHEMA_ZOO } }, [{ toolCalls: [{ name: 'assign', arguments: { ticket: 'T-1', owner: { name: 'ana' } } }] }, { text: 'assigned' }]);
    expect(await turn(agentOf(context), [], 'assign')).toBe('assigned');
    expect(context.endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
    expect(lastToolMessage(context.endpoint, 1)?.content).toBe('assign got {"ticket":"T-1","owner":{"name":"ana"}}');
  });

  test('a tool added by list_changed mid-conversation is offered on the next turn (the agent is not rebuilt)', async () => {
    const context = await setup({ sink: { path: KITCHEN_SINK } }, [
      { toolCalls: [{ name: 'add_tool', arguments: { name: 'fresh' } }] },
      { text: 'added' },
      { toolCalls: [{ name: 'fresh', arguments: { x: 'hi' } }] },
      { text: 'fresh said hi' },
    ]);
    const agent = agentOf(context);
    const history: BaseMessage[] = [];
    const changed = waitForEvent(context.client, 'tools-changed', (change) => change.added.includes('fresh'));
    await turn(agent, history, 'add a tool');
    await changed;
    expect(await turn(agent, history, 'use it')).toBe('fresh said hi');
    expect(offeredToolNames(context.endpoint.requests[0]!)).not.toContain('fresh');
    expect(offeredToolNames(context.endpoint.requests[2]!)).toContain('fresh');
    expect(lastToolMessage(context.endpoint, 3)?.content).toBe('fresh says hi');
  });

  test('a server killed mid-conversation is a tool error the model sees; the agent and tools handed out before recover after the restart', async () => {
    const gate = gatedSink();
    cleanups.push(() => gate.cleanup());
    const context = await setup({ sink: gate.entry }, [
      { toolCalls: [{ name: 'echo', arguments: { message: 'one' } }] },
      { text: 'one' },
      { toolCalls: [{ name: 'echo', arguments: { message: 'two' } }] },
      { text: 'the server is down' },
      { toolCalls: [{ name: 'echo', arguments: { message: 'three' } }] },
      { text: 'three' },
    ]);
    const agent = agentOf(context);
    const echoBefore = context.toolset.getTool('echo')!;
    const history: BaseMessage[] = [];
    expect(await turn(agent, history, 'echo one')).toBe('one');
    await gate.killAndHold(context.client, 'sink');
    expect(await turn(agent, history, 'echo two')).toBe('the server is down');
    expect(String(lastToolMessage(context.endpoint, 3)?.content)).toMatch(/^Tool "echo" belongs to server "sink", which is (failed|connecting|reconnecting)\b.*Retrying may help/);
    expect(history.filter((message) => ToolMessage.isInstance(message)).map((message) => (message as ToolMessage).status)).toEqual(['success', 'error']);
    const back = waitForEvent(context.client, 'tools-changed', (change) => change.reason === 'server-up');
    gate.open();
    await back;
    expect(await turn(agent, history, 'echo three')).toBe('three');
    expect(lastToolMessage(context.endpoint, 5)?.content).toBe('three');
    // The defect of tools that close over a session: this object was created before the restart.
    expect(await echoBefore.invoke({ message: 'still works' })).toBe('still works');
  });
});
