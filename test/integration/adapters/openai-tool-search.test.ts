/**
 * The OpenAI adapter with tool search, through the openai SDK against the scripted endpoint (which
 * rejects more than 128 tools as OpenAI does): past the limit the model gets search_tools and
 * call_tool and reaches a real server-filesystem tool it was not shown; `off` past the limit is a
 * clear error before any request; a small catalog is offered whole; pinned tools stay offered.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, expect, test } from 'vitest';
import { createOpenAIToolset, type OpenAIToolset } from '../../../src/adapters/openai.js';
import { ErrorCode } from '../../../src/errors.js';
import { chatMessages, offeredToolNames, startScriptedOpenAI, type RecordedRequest, type ScriptStep } from '../../fixtures/openai/scripted-openai-server.js';
import { MultiServerClient } from '../../../src/client/multi-server-client.js';
import { TEST_CLIENT_OPTIONS } from '../../helpers/agents.js';
import { bin, FIXTURES } from '../../helpers/fixtures.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const MANY_TOOLS = resolve(FIXTURES, 'many-tools-server.mjs');

async function setup(count: number, script: ScriptStep[], options: Parameters<typeof createOpenAIToolset>[1] = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-oa-search-'));
  // Pushed first, so it runs last (the cleanups run in reverse): after the servers using it are gone.
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'quarterly-report.txt'), 'numbers');
  const servers: Record<string, Record<string, unknown>> = { fs: { command: bin('mcp-server-filesystem'), args: [folder] } };
  if (count > 0) servers.many = { path: MANY_TOOLS, args: ['--count', String(count)] };
  const client = await MultiServerClient.connect({ naming: 'prefix', mcpServers: servers }, TEST_CLIENT_OPTIONS);
  cleanups.push(() => client.close());
  const endpoint = await startScriptedOpenAI({ script });
  cleanups.push(() => endpoint.close());
  const openai = new OpenAI({ apiKey: 'test-key', baseURL: endpoint.baseUrl, maxRetries: 0 });
  const toolset = createOpenAIToolset(client, options);
  cleanups.push(() => toolset.close());
  return { client, endpoint, openai, toolset, folder };
}

async function chatLoop(openai: OpenAI, toolset: OpenAIToolset, messages: ChatCompletionMessageParam[]): Promise<string> {
  for (let step = 0; step < 5; step++) {
    const completion = await openai.chat.completions.create({ model: 'scripted-model', messages, tools: toolset.chatCompletionsTools() });
    const message = completion.choices[0]?.message;
    if (message === undefined) throw new Error('no choice');
    messages.push(message);
    if (message.tool_calls === undefined || message.tool_calls.length === 0) return message.content ?? '';
    messages.push(...(await toolset.runChatCompletionsToolCalls(message.tool_calls)));
  }
  throw new Error('too many steps');
}

function lastToolText(request: RecordedRequest): string {
  const tool = chatMessages(request).filter((message) => message.role === 'tool').at(-1);
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content);
}

test('past 128 tools the model gets search_tools + call_tool, and reaches a tool it was not shown', async () => {
  let found = '';
  const { client, endpoint, openai, toolset, folder } = await setup(200, [
    { toolCalls: [{ name: 'search_tools', arguments: { query: 'list the files in a directory' } }] },
    (request) => {
      const result = JSON.parse(lastToolText(request)) as { tools: Array<{ name: string }> };
      found = result.tools[0]?.name ?? '';
      return { toolCalls: [{ name: 'call_tool', arguments: { name: found, arguments: { path: folder } } }] };
    },
    (request) => ({ text: `done: ${lastToolText(request)}` }),
  ]);
  expect(client.listTools().length).toBeGreaterThan(200);
  expect(toolset.searching).toBe(true);
  const calls: string[] = [];
  client.on('tool-call-start', ({ server, originalName }) => calls.push(`${server}/${originalName}`));
  const answer = await chatLoop(openai, toolset, [{ role: 'user', content: 'what files do I have?' }]);
  expect(endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined, undefined]);
  expect(offeredToolNames(endpoint.requests[0] as RecordedRequest)).toEqual(['search_tools', 'call_tool']);
  expect(found).toBe('fs__list_directory');
  expect(calls).toEqual(['fs/list_directory']);
  expect(answer).toContain('quarterly-report.txt');
  // The Responses API gets the same two tools, and its function calls run the same way.
  expect(toolset.responsesTools().map((tool) => tool.name)).toEqual(['search_tools', 'call_tool']);
  const [output] = await toolset.runResponsesToolCalls([{ type: 'function_call', call_id: 'r1', name: 'call_tool', arguments: JSON.stringify({ name: 'fs__list_directory', arguments: { path: folder } }) }]);
  expect(JSON.stringify(output)).toContain('quarterly-report.txt');
});

test("toolSearch 'off' past 128 tools: a clear LimitExceeded error before any request", async () => {
  const { endpoint, toolset } = await setup(200, [], { toolSearch: 'off' });
  expect(() => toolset.chatCompletionsTools()).toThrow(expect.objectContaining({ code: ErrorCode.LimitExceeded }));
  expect(() => toolset.responsesTools()).toThrow(/OpenAI accepts at most 128 tools in one request, and 214 would be sent \(toolSearch is off\)\. Turn tool search on \(toolSearch: 'auto' or 'on'\)/);
  expect(endpoint.requests).toEqual([]);
});

test('a small catalog is offered whole by default; a call_tool to an unknown name tells the model to search', async () => {
  const { client, toolset } = await setup(0, []);
  expect(toolset.searching).toBe(false);
  expect(toolset.chatCompletionsTools().map((tool) => tool.function.name)).toContain('fs__read_text_file');
  const on = createOpenAIToolset(client, { toolSearch: { mode: 'on', pinned: ['fs__read_text_*'] } });
  cleanups.push(() => on.close());
  expect(on.chatCompletionsTools().map((tool) => tool.function.name)).toEqual(['search_tools', 'call_tool', 'fs__read_text_file']);
  const [message] = await on.runChatCompletionsToolCalls([{ id: 'c1', type: 'function', function: { name: 'call_tool', arguments: '{"name":"fs__no_such_tool"}' } }]);
  expect(message).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
  expect(JSON.stringify(message)).toContain('There is no tool \\"fs__no_such_tool\\". Find the right name with search_tools');
});
