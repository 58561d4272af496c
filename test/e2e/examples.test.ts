/**
 * The examples in examples/ run as users run them: compiled with the project's TypeScript, importing
 * `mcp-switchboard/…` through the package's own exports (dist), spawning the npm reference servers,
 * with the scripted OpenAI-compatible endpoint as the model.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { chatMessages, startScriptedOpenAI, type RecordedRequest, type ScriptStep } from '../fixtures/openai/scripted-openai-server.js';
import { ROOT } from '../helpers/fixtures.js';

const EXAMPLES = ['langgraph-agent', 'ai-sdk-generate-text', 'openai-tool-loop'];
// Inside the package (and outside node_modules, where Node does not self-resolve), so
// `mcp-switchboard/…` resolves to this package and its dependencies to ours. .switchboard/ is git-ignored.
const OUT = resolve(ROOT, '.switchboard/examples-build');
let scratch: string;
let cleanups: Array<() => Promise<void> | void> = [];

beforeAll(() => {
  rmSync(OUT, { recursive: true, force: true });
  const tsc = resolve(ROOT, 'node_modules/.bin/tsc');
  const args = ['--ignoreConfig', '--outDir', OUT, '--rootDir', 'examples', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2023', '--strict', '--skipLibCheck', '--types', 'node'];
  execFileSync(tsc, [...args, ...EXAMPLES.map((name) => `examples/${name}.ts`)], { cwd: ROOT, stdio: 'pipe' });
  scratch = mkdtempSync(join(tmpdir(), 'switchboard-examples-'));
  return () => {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(OUT, { recursive: true, force: true });
  };
}, 60_000);

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function runExample(name: string, script: ScriptStep[]): Promise<{ code: number | null; stdout: string; stderr: string; requests: RecordedRequest[] }> {
  const endpoint = await startScriptedOpenAI({ script });
  cleanups.push(() => endpoint.close());
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(OUT, `${name}.js`)], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_BASE_URL: endpoint.baseUrl, OPENAI_API_KEY: 'sk-test', OPENAI_MODEL: 'scripted-model', SCRATCH_DIR: scratch, NOTES_DIR: resolve(ROOT, 'demo/sandbox'), MEMORY_FILE_PATH: join(scratch, 'memory.jsonl') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not finish in 40 s\n${stderr}`));
    }, 40_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr, requests: endpoint.requests });
    });
  });
}

function lastToolText(request: RecordedRequest): string {
  return String(chatMessages(request).filter((message) => message.role === 'tool').at(-1)?.content ?? '');
}

describe('examples', () => {
  test('langgraph-agent: two colliding servers, streamed events, the file really copied', async () => {
    const notes = resolve(ROOT, 'demo/sandbox');
    const readme = readFileSync(join(notes, 'README.md'), 'utf8');
    const run = await runExample('langgraph-agent', [
      { text: 'Reading it. ', toolCalls: [{ name: 'notes__read_text_file', arguments: { path: join(notes, 'README.md') } }] },
      (request) => ({ toolCalls: [{ name: 'scratch__write_file', arguments: { path: join(scratch, 'copy.md'), content: lastToolText(request) } }] }),
      { text: 'Copied README.md to scratch.' },
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Reading it. Copied README.md to scratch.\n');
    expect(run.stderr).not.toMatch(/^server \S+ is /m); // both servers started
    expect(run.stderr).toMatch(/name collision: read_text_file on notes and scratch/);
    expect(run.stderr).toMatch(/\[calling notes__read_text_file on notes\]/);
    expect(run.stderr).toMatch(/\[scratch__write_file\] ok on scratch in \d+ ms/);
    expect(readFileSync(join(scratch, 'copy.md'), 'utf8')).toBe(readme);
  }, 60_000);

  test('ai-sdk-generate-text: tools of server-everything through generateText', async () => {
    const run = await runExample('ai-sdk-generate-text', [
      { toolCalls: [{ name: 'get-sum', arguments: { a: 2, b: 3 } }, { name: 'get-tiny-image', arguments: {} }] },
      (request) => ({ text: `Sum: ${chatMessages(request).filter((message) => message.role === 'tool').length} results; 2 + 3 = 5.` }),
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Sum: 2 results; 2 + 3 = 5.\n');
    expect(run.stderr).toContain('[get-sum] {"a":2,"b":3}');
    expect(lastToolText(run.requests[1]!)).toContain('image/png');
  }, 60_000);

  test('openai-tool-loop: strict tools, concurrent calls on two servers, the memory really written', async () => {
    const run = await runExample('openai-tool-loop', [
      {
        toolCalls: [
          { name: 'create_entities', arguments: { entities: [{ name: 'Ada Lovelace', entityType: 'person', observations: ['wrote the first program'] }] } },
          { name: 'get-sum', arguments: { a: 2, b: 3 } },
        ],
      },
      { text: 'Remembered Ada; 2 + 3 = 5.' },
    ]);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Remembered Ada; 2 + 3 = 5.\n');
    expect(run.requests[0]!.rejected).toBeUndefined();
    const strict = (run.requests[0]!.body.tools as Array<{ function: { name: string; strict?: boolean } }>).find((tool) => tool.function.name === 'create_entities');
    expect(strict?.function.strict).toBe(true);
    expect(readFileSync(join(scratch, 'memory.jsonl'), 'utf8')).toContain('Ada Lovelace');
  }, 60_000);
});
