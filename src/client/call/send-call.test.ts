import { describe, expect, test } from 'vitest';
import type { CallOptions } from '../../connection/server-connection.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import type { ClientEventSink, MultiServerClientEvents } from '../multi-server-client-events.js';
import { sendCall, sendOptions } from './send-call.js';

const tool: CatalogTool = { name: 'fs__read', server: 'fs', originalName: 'read', inputSchema: { type: 'object' } };

function sink(listening: ReadonlyArray<keyof MultiServerClientEvents>): ClientEventSink & { events: Array<[string, unknown]> } {
  const events: Array<[string, unknown]> = [];
  return { events, emit: (event, payload) => void events.push([event, payload]), listenerCount: (event) => (listening.includes(event) ? 1 : 0) };
}

describe('sendOptions', () => {
  test('without a progress listener or callback, the caller’s options go as they are (no progress token asked)', () => {
    const options: CallOptions = { timeoutMs: 5 };
    expect(sendOptions(sink([]), options, 1, tool)).toBe(options);
  });

  test('progress is told as tool-progress with the call id, and to the caller’s callback', () => {
    const events = sink(['tool-progress']);
    const seen: number[] = [];
    const options = sendOptions(events, { onProgress: (update) => void seen.push(update.progress) }, 4, tool);
    options.onProgress?.({ progress: 1, total: 2 });
    expect(events.events).toEqual([['tool-progress', { callId: 4, name: 'fs__read', server: 'fs', progress: 1, total: 2 }]]);
    expect(seen).toEqual([1]);
  });
});

describe('sendCall', () => {
  test('sends the tool under its own name on its server, with the options given', async () => {
    const sent: Array<[string, Record<string, unknown>, CallOptions]> = [];
    const result: ToolResult = { isError: false, content: [] };
    const target = { callTool: (name: string, args: Record<string, unknown>, options: CallOptions) => (sent.push([name, args, options]), Promise.resolve(result)) };
    await expect(sendCall(target, tool, { path: 'a' }, { timeoutMs: 9 })).resolves.toBe(result);
    expect(sent).toEqual([['read', { path: 'a' }, { timeoutMs: 9 }]]);
  });
});
