/**
 * The conformance fixture (test/fixtures/servers/conformance-server.mjs) as the gateway meets it:
 * over stdio through ServerConnection. `npm run conformance` judges it over HTTP with the official
 * suite; this checks the stdio mode the gateway spawns, and the HTTP mode's Host/Origin checks.
 */
import { request } from 'node:http';
import { resolve } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ServerConnection, type ServerConnectionOptions } from '../../src/connection/server-connection.js';
import { FIXTURES, freePort, specOf, startHttpFixture, type HttpFixture } from '../helpers/fixtures.js';

const CONFORMANCE_SERVER = resolve(FIXTURES, 'conformance-server.mjs');

const open: ServerConnection[] = [];
async function connect(options: ServerConnectionOptions = {}): Promise<ServerConnection> {
  const connection = new ServerConnection(specOf('conformance', { command: process.execPath, args: [CONFORMANCE_SERVER] }), options);
  open.push(connection);
  await connection.connect();
  return connection;
}
let http: HttpFixture | undefined;
afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
  await http?.close();
  http = undefined;
});

describe('the conformance fixture over stdio', () => {
  test('offers the names the suite calls, each tool with a description and an object schema', async () => {
    const connection = await connect();
    expect(connection.capabilities).toMatchObject({ tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} });
    const tools = await connection.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'json_schema_2020_12_tool',
      'test_audio_content',
      'test_elicitation',
      'test_elicitation_sep1034_defaults',
      'test_elicitation_sep1330_enums',
      'test_embedded_resource',
      'test_error_handling',
      'test_image_content',
      'test_multiple_content_types',
      'test_reconnection',
      'test_sampling',
      'test_simple_text',
      'test_tool_with_logging',
      'test_tool_with_progress',
    ]);
    for (const tool of tools) {
      expect(tool.description, tool.name).toBeTruthy();
      expect(tool.inputSchema, tool.name).toMatchObject({ type: 'object' });
    }
    // The 2020-12 schema reaches clients as written (the suite's pending json-schema-2020-12 scenario).
    expect(tools.find((tool) => tool.name === 'json_schema_2020_12_tool')?.inputSchema).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { address: { type: 'object' } },
      additionalProperties: false,
    });
    expect((await connection.listResources()).map((resource) => resource.uri).sort()).toEqual(['test://static-binary', 'test://static-text', 'test://watched-resource']);
    expect((await connection.listResourceTemplates()).map((template) => template.uriTemplate)).toEqual(['test://template/{id}/data']);
    expect((await connection.listPrompts()).map((prompt) => prompt.name).sort()).toEqual([
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_simple_prompt',
    ]);
  });

  test('content tools return text, image, audio, an embedded resource and a mix; the error tool an isError result', async () => {
    const connection = await connect();
    expect(await connection.callTool('test_simple_text')).toEqual({ isError: false, content: [{ type: 'text', text: 'This is a simple text response for testing.' }] });
    expect((await connection.callTool('test_image_content')).content).toEqual([{ type: 'image', data: expect.any(String), mimeType: 'image/png' }]);
    const audio = (await connection.callTool('test_audio_content')).content[0];
    expect(audio).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    expect(Buffer.from(audio?.type === 'audio' ? audio.data : '', 'base64').subarray(0, 4).toString()).toBe('RIFF');
    expect((await connection.callTool('test_embedded_resource')).content).toEqual([
      { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } },
    ]);
    expect((await connection.callTool('test_multiple_content_types')).content.map((item) => item.type)).toEqual(['text', 'image', 'resource']);
    expect(await connection.callTool('test_error_handling')).toEqual({ isError: true, content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }] });
  });

  test('progress 0, 50, 100 of 100 reaches the caller; three log messages arrive during the logging tool', async () => {
    const connection = await connect();
    const updates: Array<{ progress: number; total?: number }> = [];
    await connection.callTool('test_tool_with_progress', {}, { onProgress: (update) => updates.push({ progress: update.progress, total: update.total }) });
    expect(updates).toEqual([{ progress: 0, total: 100 }, { progress: 50, total: 100 }, { progress: 100, total: 100 }]);

    const logs: unknown[] = [];
    connection.on('log', (event) => logs.push(event.data));
    await connection.request('logging/setLevel', { level: 'debug' });
    await connection.callTool('test_tool_with_logging');
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
  });

  test('sampling and elicitation go to the client and their answers come back', async () => {
    const asked: Array<Record<string, unknown>> = [];
    const connection = await connect({
      onSampling: async (params) => {
        asked.push(params);
        return { role: 'assistant', content: { type: 'text', text: 'forty-two' }, model: 'scripted', stopReason: 'endTurn' };
      },
      onElicitation: async (params) => {
        asked.push(params);
        return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
      },
    });
    expect(await connection.callTool('test_sampling', { prompt: 'the answer?' })).toEqual({ isError: false, content: [{ type: 'text', text: 'LLM response: forty-two' }] });
    expect(asked[0]).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'the answer?' } }], maxTokens: 100 });
    const elicited = await connection.callTool('test_elicitation', { message: 'who are you?' });
    expect(elicited.content).toEqual([{ type: 'text', text: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}' }]);
    expect(asked[1]).toMatchObject({ mode: 'form', message: 'who are you?', requestedSchema: { required: ['username', 'email'] } });
  });

  test('without the client capabilities, sampling and elicitation tools report an error result', async () => {
    const connection = await connect();
    expect((await connection.callTool('test_sampling', { prompt: 'x' })).isError).toBe(true);
    expect((await connection.callTool('test_elicitation', { message: 'x' })).isError).toBe(true);
  });

  test('resources, templates, subscriptions, prompts and completion', async () => {
    const connection = await connect();
    expect((await connection.readResource('test://static-text')).contents).toEqual([{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }]);
    expect((await connection.readResource('test://static-binary')).contents).toEqual([{ uri: 'test://static-binary', mimeType: 'image/png', blob: expect.any(String) }]);
    const templated = (await connection.readResource('test://template/123/data')).contents[0];
    const templatedText = templated !== undefined && 'text' in templated ? templated.text : undefined;
    expect(JSON.parse(templatedText ?? 'null')).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
    expect(await connection.request('resources/subscribe', { uri: 'test://watched-resource' })).toEqual({});
    expect(await connection.request('resources/unsubscribe', { uri: 'test://watched-resource' })).toEqual({});

    const prompt = await connection.getPrompt('test_prompt_with_arguments', { arg1: 'one', arg2: 'two' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='one', arg2='two'" } }]);
    const embedded = await connection.getPrompt('test_prompt_with_embedded_resource', { resourceUri: 'test://x' });
    expect(embedded.messages[0]?.content).toMatchObject({ type: 'resource', resource: { uri: 'test://x' } });
    expect((await connection.getPrompt('test_prompt_with_image')).messages[0]?.content).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const completion = await connection.request('completion/complete', { ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'par' } });
    expect(completion).toMatchObject({ completion: { values: ['paris', 'park', 'party'] } });
  });
});

describe('the conformance fixture over HTTP', () => {
  /** Status of a raw initialize POST with the given Host and Origin. */
  function initializeWith(port: number, host: string): Promise<number | undefined> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    return new Promise((resolveStatus, reject) => {
      const post = request(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host, origin: `http://${host}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
        (response) => {
          response.resume();
          resolveStatus(response.statusCode);
          response.destroy();
        },
      );
      post.on('error', reject);
      post.end(body);
    });
  }

  test('refuses a foreign Host/Origin (DNS rebinding) and accepts a loopback one', async () => {
    const port = await freePort();
    http = await startHttpFixture(process.execPath, [CONFORMANCE_SERVER, '--http', String(port)], { port });
    expect(await initializeWith(port, 'evil.example.com')).toBe(403);
    expect(await initializeWith(port, `127.0.0.1:${port}`)).toBe(200);
    expect(await initializeWith(port, `localhost:${port}`)).toBe(200);
  });
});
