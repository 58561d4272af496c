/**
 * @module gateway/read-node-body
 * Reads an `/mcp` POST body straight from the Node request, up to a limit, and parses it once. Handing
 * the parsed body to the MCP SDK (`parsedBody`) spares a web `Request` body per call — in Node 20 its
 * streams are among the costliest parts of a request — and a second parse when a 2025-era request
 * has to be told apart from a 2026-07-28 one.
 */

import type { IncomingMessage } from 'node:http';

/** What {@link readJsonBody} found. */
export type JsonBody = { kind: 'json'; value: unknown } | { kind: 'too-large' } | { kind: 'invalid' };

/** Reads and parses the body of `incoming`; more than `maxBytes` is `too-large` (the rest is drained). */
export function readJsonBody(incoming: IncomingMessage, maxBytes: number): Promise<JsonBody> {
  const declared = Number(incoming.headers['content-length']);
  return new Promise((resolve, reject) => {
    if (Number.isFinite(declared) && declared > maxBytes) {
      incoming.resume();
      resolve({ kind: 'too-large' });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    incoming.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    // `on`, not `once`: each fires once at most, the request is dropped with its listeners, and a
    // promise settles once — `once` only added a wrapper per listener per call (issue 17).
    incoming.on('error', reject);
    // A client that goes away mid-body never sends the end: answer (to nobody) rather than wait forever.
    incoming.on('close', () => {
      if (!incoming.complete) resolve({ kind: 'invalid' });
    });
    incoming.on('end', () => {
      if (tooLarge) {
        resolve({ kind: 'too-large' });
        return;
      }
      try {
        const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
        resolve({ kind: 'json', value: JSON.parse(body.toString('utf8')) as unknown });
      } catch {
        resolve({ kind: 'invalid' });
      }
    });
  });
}
