/**
 * `switchboard chat` end to end: the built CLI, real MCP servers over stdio (our kitchen-sink and the
 * npm server-everything), and the scripted OpenAI-compatible endpoint standing in for the model.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { chatMessages, offeredToolNames, startScriptedOpenAI, type ScriptedOpenAI, type ScriptStep } from '../fixtures/openai/scripted-openai-server.js';
import { TINY_PNG } from '../helpers/agents.js';
import { KITCHEN_SINK, ROOT, bin, freePort } from '../helpers/fixtures.js';

const CLI = resolve(ROOT, 'bin/switchboard.js');
let directory: string;
let configPath: string;
let cleanups: Array<() => Promise<void> | void> = [];

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'switchboard-chat-'));
  configPath = join(directory, 'switchboard.json');
  writeFileSync(configPath, JSON.stringify({ mcpServers: { sink: { path: KITCHEN_SINK }, everything: { command: bin('mcp-server-everything') } } }));
  return () => rmSync(directory, { recursive: true, force: true });
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to completion (bounded), feeding `input` on stdin. */
function runCli(args: string[], env: Record<string, string | undefined>, input = ''): Promise<Run> {
  return new Promise((resolveRun, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete childEnv.OPENAI_API_KEY;
    delete childEnv.OPENAI_BASE_URL;
    delete childEnv.OPENAI_MODEL;
    for (const [key, value] of Object.entries(env)) {
      if (value === undefined) delete childEnv[key];
      else childEnv[key] = value;
    }
    const child = spawn(process.execPath, [CLI, ...args], { cwd: directory, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`switchboard ${args.join(' ')} did not finish in 25 s\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, 25_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

async function endpointWith(script: ScriptStep[]): Promise<ScriptedOpenAI> {
  const endpoint = await startScriptedOpenAI({ script });
  cleanups.push(() => endpoint.close());
  return endpoint;
}

describe('switchboard chat', () => {
  test('--once completes a tool-using turn: streamed answer on stdout, tool start and end lines on stderr', async () => {
    const endpoint = await endpointWith([
      { text: 'Let me check. ', toolCalls: [{ name: 'everything__echo', arguments: { message: 'hi' } }] },
      { text: 'The server said: Echo: hi' },
    ]);
    const run = await runCli(['chat', '--once', 'make the server say hi', '--config', configPath], { OPENAI_BASE_URL: endpoint.baseUrl });
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Let me check. \nThe server said: Echo: hi\n');
    const lines = run.stderr.split('\n');
    const start = lines.findIndex((line) => line.startsWith('→ everything__echo [everything] {"message":"hi"}'));
    const end = lines.findIndex((line) => /^← everything__echo \[everything\] ok \d+ ms: Echo: hi$/.test(line));
    expect(start).toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    expect(run.stderr).toMatch(/2\/2 servers, 23 tools; model scripted-model at http:\/\/127\.0\.0\.1:\d+\/v1/);
    // The model was offered both echoes (the collision was resolved) and saw the tool's answer.
    expect(offeredToolNames(endpoint.requests[0]!)).toEqual(expect.arrayContaining(['sink__echo', 'everything__echo', 'image']));
    expect(chatMessages(endpoint.requests[1]!).find((message) => message.role === 'tool')).toMatchObject({ content: 'Echo: hi' });
    expect(endpoint.requests[0]!.headers.authorization).toBe('Bearer not-needed');
  });

  test('interactive: /tools, /servers, a question with an image result, /exit', async () => {
    const endpoint = await endpointWith([{ toolCalls: [{ name: 'image', id: 'img' }] }, { text: 'A red pixel.' }]);
    const run = await runCli(['chat', '--config', configPath, '--model', 'scripted-model'], { OPENAI_BASE_URL: endpoint.baseUrl, OPENAI_API_KEY: 'sk-test' }, '/tools\n/servers\nwhat does the image tool show?\n/exit\nnever read\n');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^sink__echo \[sink\] Echoes the message back\.$/m);
    expect(run.stdout).toMatch(/^get-tiny-image \[everything\] /m);
    expect(run.stdout).toMatch(/^sink ready 10 tools$/m);
    expect(run.stdout).toMatch(/^everything ready 13 tools$/m);
    expect(run.stdout).toMatch(/^A red pixel\.$/m);
    expect(run.stderr).toMatch(/^← image \[sink\] ok \d+ ms: \[image image\/png, 70 bytes\]/m);
    expect(endpoint.requests).toHaveLength(2);
    expect(endpoint.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    // The image reached the model as an image part (in a user message: Chat Completions takes it only there).
    expect(chatMessages(endpoint.requests[1]!).at(-1)).toMatchObject({
      role: 'user',
      content: expect.arrayContaining([{ type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG}` } }]),
    });
  });

  test('a tool error is shown as an error line and the model gets to answer', async () => {
    const endpoint = await endpointWith([{ toolCalls: [{ name: 'fail', arguments: { reason: 'disk full' } }] }, { text: 'The tool failed: disk full.' }]);
    const run = await runCli(['chat', '--once', 'try', '--config', configPath], { OPENAI_BASE_URL: endpoint.baseUrl });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^← fail \[sink\] error \d+ ms: failed: disk full$/m);
    expect(run.stdout).toBe('The tool failed: disk full.\n');
  });

  test('bad arguments: the model gets the field and what is wrong (no stack trace), and the call shows as → and ← lines', async () => {
    const endpoint = await endpointWith([{ toolCalls: [{ name: 'get-sum', arguments: { a: 1 } }] }, { text: 'I need a second number.' }]);
    const run = await runCli(['chat', '--once', 'add 1 and something', '--config', configPath], { OPENAI_BASE_URL: endpoint.baseUrl });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('I need a second number.\n');
    const told = chatMessages(endpoint.requests[1]!).find((message) => message.role === 'tool');
    expect(told?.content).toBe('Tool "get-sum" on server "everything" was not called: invalid arguments: `b` is required but missing. Fix the arguments and call again.');
    const lines = run.stderr.split('\n');
    const start = lines.findIndex((line) => line.startsWith('→ get-sum [everything] {"a":1}'));
    const end = lines.findIndex((line) => /^← get-sum \[everything\] error \d+ ms: Tool "get-sum" on server "everything" was not called: invalid arguments: `b` is required but missing/.test(line));
    expect(start, run.stderr).toBeGreaterThanOrEqual(0);
    expect(end, run.stderr).toBeGreaterThan(start);
    expect(run.stderr).not.toMatch(/\n\s+at |did not match expected schema|node_modules/);
  });

  test('on a terminal, Ctrl-C cancels the running turn (and the tool call) and the chat goes on', async () => {
    const endpoint = await endpointWith([{ toolCalls: [{ name: 'sleep', arguments: { ms: 20_000 } }] }, { text: 'Second answer.' }]);
    // script(1) gives the CLI a pseudo-terminal, as a person at a terminal would.
    const command = [process.execPath, CLI, 'chat', '--config', configPath].map((part) => `'${part}'`).join(' ');
    const child = spawn('script', ['-qfc', command, '/dev/null'], { cwd: directory, env: { ...process.env, OPENAI_BASE_URL: endpoint.baseUrl, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });
    let screen = '';
    const waiters: Array<() => void> = [];
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      for (const waiter of waiters.splice(0)) waiter();
    });
    const waitForScreen = (pattern: RegExp): Promise<void> =>
      new Promise((resolveWait, reject) => {
        const timer = setTimeout(() => reject(new Error(`never saw ${pattern} on the terminal:\n${screen}`)), 15_000);
        const check = (): void => {
          if (pattern.test(screen)) {
            clearTimeout(timer);
            resolveWait();
          } else waiters.push(check);
        };
        check();
      });
    const exited = new Promise<number | null>((resolveExit) => child.once('close', resolveExit));
    await waitForScreen(/type a question/);
    child.stdin.write('sleep for a while\r');
    await waitForScreen(/→ sleep \[sink\]/);
    child.stdin.write('\u0003');
    await waitForScreen(/interrupted/);
    child.stdin.write('second question\r');
    await waitForScreen(/Second answer\./);
    child.stdin.write('/exit\r');
    expect(await exited).toBe(0);
    expect(screen).not.toMatch(/← sleep/); // the tool call never finished: it was cancelled
    expect(endpoint.requests).toHaveLength(2);
    // The interrupted turn left nothing behind: the second request holds only the second question.
    expect(chatMessages(endpoint.requests[1]!).map((message) => message.role)).toEqual(['system', 'user']);
  });

  test('no model endpoint: one clear line, exit 1, no stack trace, no server started', async () => {
    const port = await freePort();
    const run = await runCli(['chat', '--once', 'hi', '--config', configPath], { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toBe(
      `no model endpoint answers at http://127.0.0.1:${port}/v1 (connection refused); start one (e.g. \`ollama serve\`) or point OPENAI_BASE_URL at a running OpenAI-compatible server`,
    );
    expect(run.stdout).toBe('');
  });

  test('no key and no base URL: a usage error that says what to set', async () => {
    const run = await runCli(['chat', '--once', 'hi', '--config', configPath], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^switchboard chat needs a model: set OPENAI_API_KEY .* or OPENAI_BASE_URL/);
  });

  test('the endpoint failing mid-turn is reported in one line (exit 1)', async () => {
    const endpoint = await endpointWith([{ toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] }, { error: { status: 503, message: 'the model is overloaded' } }, { error: { status: 503, message: 'the model is overloaded' } }]);
    const run = await runCli(['chat', '--once', 'add', '--config', configPath], { OPENAI_BASE_URL: endpoint.baseUrl });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^the model endpoint answered HTTP 503: .*overloaded/m);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
