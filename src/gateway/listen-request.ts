/**
 * @module gateway/listen-request
 * Telling a 2026-07-28 `subscriptions/listen` request from the others before it is served: its
 * answer is a stream that lasts as long as its client wants, so it is held to a cap
 * (`maxListenStreamsPerUser`, `maxListenStreams`) like a 2025-era session.
 */

import { isJsonContentType } from '@modelcontextprotocol/server';

/**
 * True when `request` is a `subscriptions/listen` request. The body is the one already parsed from
 * the Node request when there is one; else (served in process) a copy is read, up to `maxBytes` — a
 * body too large or not JSON is no listen request, and the SDK refuses it on its own.
 */
export async function isListenRequest(request: Request, parsedBody: { value: unknown } | undefined, maxBytes: number): Promise<boolean> {
  if (request.method !== 'POST') return false;
  // Without a JSON body the SDK answers 415: nothing to read.
  if (parsedBody === undefined && !isJsonContentType(request.headers.get('content-type'))) return false;
  const body = parsedBody === undefined ? await readCopy(request, maxBytes) : parsedBody.value;
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'method' in body && body.method === 'subscriptions/listen';
}

async function readCopy(request: Request, maxBytes: number): Promise<unknown> {
  const stream = request.clone().body;
  if (stream === null) return undefined;
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxBytes) return undefined;
      chunks.push(chunk.value);
    }
  } catch {
    return undefined;
  } finally {
    // Not awaited: cancelling one branch of a tee settles only once the other (the SDK's) is done too.
    reader.cancel().catch(() => {});
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
