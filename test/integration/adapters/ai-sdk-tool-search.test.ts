/**
 * The AI SDK adapter with tool search: generateText (@ai-sdk/openai, Responses API) against the scripted
 * endpoint, real server-filesystem and server-memory. Step 1 offers only search_tools and call_tool;
 * the tools found are active from the next step, and the model calls one directly.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs } from 'ai';
import { afterEach, expect, test } from 'vitest';
import { createAiSdkToolset } from '../../../src/adapters/ai-sdk.js';
import { offeredToolNames, startScriptedOpenAI, type RecordedRequest } from '../../fixtures/openai/scripted-openai-server.js';
import { connectClient } from '../../helpers/agents.js';
import { bin } from '../../helpers/fixtures.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

function lastOutput(request: RecordedRequest): string {
  const input = Array.isArray(request.body.input) ? request.body.input : [];
  const outputs = input.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null && (item as Record<string, unknown>).type === 'function_call_output');
  return JSON.stringify(outputs.at(-1)?.output ?? '');
}

test('toolSearch on: step 1 offers the meta-tools, found tools are active from the next step', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'switchboard-ai-search-'));
  // Pushed first, so it runs last (the cleanups run in reverse): after the servers using it are gone.
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  writeFileSync(join(folder, 'invoice-17.pdf'), 'x');
  const client = await connectClient({ fs: { command: bin('mcp-server-filesystem'), args: [folder] }, memory: { command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } } });
  cleanups.push(() => client.close());
  let found: string[] = [];
  const endpoint = await startScriptedOpenAI({
    script: [
      { toolCalls: [{ name: 'search_tools', arguments: { query: 'list the files of a directory', limit: 3 } }] },
      (request) => {
        found = (JSON.parse(JSON.parse(lastOutput(request)) as string) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
        return { toolCalls: [{ name: found[0] ?? '', arguments: { path: folder } }] };
      },
      (request) => ({ text: lastOutput(request) }),
    ],
  });
  cleanups.push(() => endpoint.close());
  const toolset = createAiSdkToolset(client, { toolSearch: 'on' });
  cleanups.push(() => toolset.close());
  const provider = createOpenAI({ baseURL: endpoint.baseUrl, apiKey: 'test-key' });
  const { text } = await generateText({ model: provider('scripted-model'), tools: toolset.live, prepareStep: toolset.prepareStep, stopWhen: stepCountIs(4), prompt: 'what is in my folder?' });
  expect(endpoint.requests.map((request) => request.rejected)).toEqual([undefined, undefined, undefined]);
  const offered = endpoint.requests.map((request) => offeredToolNames(request));
  expect(offered[0]).toEqual(['search_tools', 'call_tool']);
  expect(found).toHaveLength(3);
  expect(found[0]).toBe('list_directory');
  expect(offered[1]?.sort()).toEqual(['call_tool', 'search_tools', ...found].sort());
  expect(text).toContain('invoice-17.pdf');
});

test("toolSearch unset: every tool, no meta-tools, no activeTools", async () => {
  const client = await connectClient({ fs: { command: bin('mcp-server-filesystem'), args: [tmpdir()] } });
  cleanups.push(() => client.close());
  const toolset = createAiSdkToolset(client);
  cleanups.push(() => toolset.close());
  expect(toolset.activeTools()).toBeUndefined();
  expect(Object.keys(toolset.live)).toEqual(client.listTools().map((tool) => tool.name));
});
