/**
 * OpenAI's own tool search through the OpenAI adapter (`nativeToolSearch`), with the openai SDK against
 * the scripted Responses endpoint (which loads deferred functions as OpenAI's hosted tool_search does,
 * and rejects deferred functions without the tool_search tool): every tool is sent with
 * `defer_loading: true` except the pinned one, next to `{ type: 'tool_search' }`; the model's call of
 * a deferred tool reaches the real server-filesystem tool by its own name. Chat Completions (no tool
 * search there) and a catalog past OpenAI's 128-tool cap keep search_tools and call_tool.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import OpenAI from 'openai';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterEach, expect, test } from 'vitest';
import { createOpenAIToolset } from '../../../src/adapters/openai.js';
import { MultiServerClient } from '../../../src/client/multi-server-client.js';
import { offeredToolNames, startScriptedOpenAI, type RecordedRequest, type ScriptStep } from '../../fixtures/openai/scripted-openai-server.js';
import { TEST_CLIENT_OPTIONS } from '../../helpers/agents.js';
import { bin, FIXTURES } from '../../helpers/fixtures.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

const MANY_TOOLS = resolve(FIXTURES, 'many-tools-server.mjs');

async function setup(count: number, script: ScriptStep[]) {
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-oa-native-'));
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
  const toolset = createOpenAIToolset(client, { toolSearch: { mode: 'on', pinned: ['fs__read_text_file'] }, nativeToolSearch: true });
  cleanups.push(() => toolset.close());
  return { client, endpoint, openai, toolset, folder };
}

test('Responses API: every tool deferred (the pinned one eager) beside tool_search; a deferred tool is called by its own name', async () => {
  let folderPath = '';
  const { client, endpoint, openai, toolset, folder } = await setup(20, [
    () => ({ toolCalls: [{ name: 'fs__list_directory', arguments: { path: folderPath } }] }),
    { text: 'listed' },
  ]);
  folderPath = folder;
  expect(toolset.nativeSearching).toBe(true);
  const calls: string[] = [];
  client.on('tool-call-start', ({ server, originalName }) => calls.push(`${server}/${originalName}`));
  const input: ResponseInputItem[] = [{ role: 'user', content: 'what files do I have?' }];
  const first = await openai.responses.create({ model: 'scripted-model', input, tools: toolset.responsesToolsWithSearch() });
  expect(first.output.map((item) => item.type)).toEqual(['tool_search_call', 'tool_search_output', 'function_call']);
  const outputs = await toolset.runResponsesToolCalls(first.output);
  expect(outputs).toHaveLength(1);
  expect(JSON.stringify(outputs[0]?.output)).toContain('quarterly-report.txt');
  input.push(...(first.output as ResponseInputItem[]), ...outputs);
  const second = await openai.responses.create({ model: 'scripted-model', input, tools: toolset.responsesToolsWithSearch() });
  expect(second.output_text).toBe('listed');
  expect(endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined]);
  expect(calls).toEqual(['fs/list_directory']);
  const sent = (endpoint.requests[0] as RecordedRequest).body.tools as Array<Record<string, unknown>>;
  expect(sent[0]).toEqual({ type: 'tool_search' });
  const functions = sent.slice(1);
  expect(functions.map((tool) => tool.name).sort()).toEqual(client.listTools().map((tool) => tool.name).sort());
  expect(functions.filter((tool) => tool.defer_loading !== true).map((tool) => tool.name)).toEqual(['fs__read_text_file']);
  expect(functions.map((tool) => tool.name)).not.toContain('search_tools');
});

test('Chat Completions has no tool search: it keeps search_tools and call_tool; past 127 tools Responses does too', async () => {
  const small = await setup(20, [{ text: 'hi' }]);
  await small.openai.chat.completions.create({ model: 'scripted-model', messages: [{ role: 'user', content: 'hi' }], tools: small.toolset.chatCompletionsTools() });
  expect(offeredToolNames(small.endpoint.requests[0] as RecordedRequest)).toEqual(['search_tools', 'call_tool', 'fs__read_text_file']);
  const large = await setup(120, [{ text: 'hi' }]);
  expect(large.client.listTools().length).toBeGreaterThan(127);
  expect(large.toolset.nativeSearching).toBe(false);
  await large.openai.responses.create({ model: 'scripted-model', input: 'hi', tools: large.toolset.responsesToolsWithSearch() });
  expect(large.endpoint.requests[0]?.rejected).toBeUndefined();
  expect(offeredToolNames(large.endpoint.requests[0] as RecordedRequest)).toEqual(['search_tools', 'call_tool', 'fs__read_text_file']);
});
