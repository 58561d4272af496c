import { afterEach, expect, test } from 'vitest';
import { ChatSession, type ChatEvent } from '../../src/cli/chat/chat-session.js';
import { chatMessages, offeredToolNames, startScriptedOpenAI } from '../fixtures/openai/scripted-openai-server.js';
import { connectClient, waitForEvent } from '../helpers/agents.js';
import { KITCHEN_SINK } from '../helpers/fixtures.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function collect(events: AsyncGenerator<ChatEvent>): Promise<ChatEvent[]> {
  const all: ChatEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

test('a chat turn streams tokens, tool start, tool end, answer tokens, done — and the conversation and new tools carry to the next turn', async () => {
  const client = await connectClient({ sink: { path: KITCHEN_SINK } });
  cleanups.push(() => client.close());
  const endpoint = await startScriptedOpenAI({
    script: [
      { text: 'Adding a tool. ', toolCalls: [{ name: 'add_tool', arguments: { name: 'fresh' } }] },
      { text: 'Added fresh.' },
      { toolCalls: [{ name: 'fresh', arguments: { x: 'hi' } }] },
      { text: 'fresh says hi' },
    ],
  });
  cleanups.push(() => endpoint.close());
  const session = new ChatSession({ client, endpoint: { baseUrl: endpoint.baseUrl, apiKey: undefined, model: 'scripted-model' } });
  cleanups.push(() => session.close());

  const changed = waitForEvent(client, 'tools-changed', (change) => change.added.includes('fresh'));
  const first = await collect(session.turn('add a tool called fresh'));
  const kinds = first.map((event) => event.type).filter((type, index, all) => type !== 'token' || all[index - 1] !== 'token');
  expect(kinds).toEqual(['token', 'tool-start', 'tool-end', 'token', 'done']);
  expect(first.find((event) => event.type === 'tool-start')).toMatchObject({ tool: 'add_tool', server: 'sink', input: { name: 'fresh' } });
  expect(first.find((event) => event.type === 'tool-end')).toMatchObject({ tool: 'add_tool', server: 'sink', ok: true, output: 'added fresh' });
  expect(first.at(-1)).toEqual({ type: 'done', answer: 'Added fresh.' });
  expect(endpoint.requests.every((request) => request.stream)).toBe(true);

  await changed;
  const second = await collect(session.turn('use it'));
  expect(second.at(-1)).toEqual({ type: 'done', answer: 'fresh says hi' });
  expect(offeredToolNames(endpoint.requests[2]!)).toContain('fresh');
  // The second turn carries the first: system, question, tool call, tool result, answer, new question.
  expect(chatMessages(endpoint.requests[2]!).map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
});
