/**
 * `switchboard chat --once` with a large catalog (server-filesystem + memory + everything + 60 tools of
 * the many-tools fixture, over stdio), against the scripted OpenAI-compatible endpoint: the model is
 * shown search_tools and call_tool, searches, and reaches a filesystem tool it was not shown; with
 * `--tool-search off` it is shown every tool.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { chatMessages, offeredToolNames, startScriptedOpenAI, type RecordedRequest, type ScriptStep } from '../fixtures/openai/scripted-openai-server.js';
import { bin, FIXTURES } from '../helpers/fixtures.js';
import { runCli } from '../helpers/run-cli.js';

let directory: string;
let configPath: string;
let cleanups: Array<() => Promise<void> | void> = [];

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'switchboard-chat-search-'));
  writeFileSync(join(directory, 'budget-2027.csv'), 'q1,q2\n1,2\n');
  configPath = join(directory, 'switchboard.json');
  writeFileSync(
    configPath,
    JSON.stringify({
      mcpServers: {
        fs: { command: bin('mcp-server-filesystem'), args: [directory] },
        memory: { command: bin('mcp-server-memory'), env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') } },
        everything: { command: bin('mcp-server-everything') },
        many: { path: resolve(FIXTURES, 'many-tools-server.mjs'), args: ['--count', '60'] },
      },
    }),
  );
  return () => rmSync(directory, { recursive: true, force: true });
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function endpointWith(script: ScriptStep[]) {
  const endpoint = await startScriptedOpenAI({ script });
  cleanups.push(() => endpoint.close());
  return endpoint;
}

function lastToolText(request: RecordedRequest): string {
  const tool = chatMessages(request).filter((message) => message.role === 'tool').at(-1);
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content);
}

test('chat --once: the model uses search_tools, then call_tool to reach a tool it was not shown', async () => {
  let found = '';
  const endpoint = await endpointWith([
    { toolCalls: [{ name: 'search_tools', arguments: { query: 'list the files in a folder' } }] },
    (request) => {
      found = (JSON.parse(lastToolText(request)) as { tools: Array<{ name: string }> }).tools[0]?.name ?? '';
      return { toolCalls: [{ name: 'call_tool', arguments: { name: found, arguments: { path: directory } } }] };
    },
    (request) => ({ text: `You have: ${lastToolText(request)}` }),
  ]);
  const run = await runCli(['chat', '--once', 'what files do I have?', '--config', configPath], { cwd: directory, env: { OPENAI_BASE_URL: endpoint.baseUrl, OPENAI_API_KEY: undefined, OPENAI_MODEL: undefined }, timeoutMs: 40_000 });
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.code).toBe(0);
  expect(run.stderr).toContain('(offered through search_tools and call_tool)');
  const offered = endpoint.requests.map((request) => offeredToolNames(request));
  expect(offered[0]).toEqual(['search_tools', 'call_tool']);
  expect(found).toBe('list_directory');
  // The tools found are real tools on the next model call.
  expect(offered[1]).toEqual(expect.arrayContaining(['search_tools', 'call_tool', 'list_directory']));
  expect(offered[1]?.length).toBeLessThanOrEqual(7);
  expect(run.stderr).toMatch(/call_tool/);
  expect(run.stdout).toContain('budget-2027.csv');
});

test('chat --once --tool-search off: every tool is offered', async () => {
  const endpoint = await endpointWith([{ text: 'ok' }]);
  const run = await runCli(['chat', '--once', 'hi', '--tool-search', 'off', '--config', configPath], { cwd: directory, env: { OPENAI_BASE_URL: endpoint.baseUrl, OPENAI_API_KEY: undefined, OPENAI_MODEL: undefined }, timeoutMs: 40_000 });
  expect(run.code).toBe(0);
  const offered = offeredToolNames(endpoint.requests[0] as RecordedRequest);
  expect(offered.length).toBeGreaterThan(80);
  expect(offered).not.toContain('search_tools');
});

test('chat --tool-search with a bad mode is a usage error', async () => {
  const run = await runCli(['chat', '--once', 'hi', '--tool-search', 'sometimes', '--config', configPath], { cwd: directory, env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, timeoutMs: 20_000 });
  expect(run.code).not.toBe(0);
  expect(run.stderr).toContain('--tool-search must be one of off, on, auto, got "sometimes"');
  expect(run.stderr).not.toMatch(/\n\s+at /);
});
