/**
 * Reading a gateway's `/api/events` Server-Sent Events in a test: every event is kept (name, raw data
 * and parsed data) until the stream is closed.
 */
import { waitFor } from './processes.js';
import { readSseBlocks } from './sse-blocks.js';

/** An open `/api/events` stream. */
export interface EventStream {
  /** Events seen so far. */
  readonly seen: ReadonlyArray<{ event: string; raw: string; data: Record<string, unknown> }>;
  /** Closes the stream and waits for the reader to end. */
  close(): Promise<void>;
}

/** Opens `/api/events` with `token` and resolves once the gateway says it is connected. */
export async function openEventStream(url: string, token: string, timeoutMs = 10_000): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(`${url}/api/events?token=${token}`, { signal: controller.signal });
  if (response.status !== 200) throw new Error(`/api/events answered ${response.status}`);
  const reader = response.body?.getReader();
  if (reader === undefined) throw new Error('/api/events has no body');
  const seen: Array<{ event: string; raw: string; data: Record<string, unknown> }> = [];
  let connected = false;
  const pump = readSseBlocks(reader, (block) => {
    if (block.startsWith(': connected')) connected = true;
    const event = /^event: (.+)$/m.exec(block)?.[1];
    const raw = /^data: (.+)$/m.exec(block)?.[1];
    if (event !== undefined && raw !== undefined) seen.push({ event, raw, data: JSON.parse(raw) as Record<string, unknown> });
  });
  try {
    await waitFor(() => connected, timeoutMs, 'the event stream to open');
  } catch (error) {
    controller.abort();
    await pump;
    throw error;
  }
  return {
    seen,
    async close() {
      controller.abort();
      await pump;
    },
  };
}
