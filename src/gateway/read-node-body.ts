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
    incoming.once('error', reject);
    incoming.once('end', () => {
      if (tooLarge) {
        resolve({ kind: 'too-large' });
        return;
      }
      try {
        resolve({ kind: 'json', value: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ kind: 'invalid' });
      }
    });
  });
}
