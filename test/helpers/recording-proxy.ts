/**
 * A loopback TCP proxy that keeps the head (request line and headers) of the first request on each
 * connection: a test sees the exact bytes a real client (HAProxy's health check) sent, while the real
 * server behind still answers them.
 */
import { connect } from 'node:net';
import { startTrackedServer } from './tracked-server.js';

/** The most of a connection's first bytes kept while looking for the end of the head. */
const HEAD_LIMIT = 16 * 1024;

export interface RecordingProxy {
  port: number;
  /** The request heads seen so far, one per connection, up to and including the blank line. */
  readonly heads: readonly string[];
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (port 0) forwarding to `targetHost:targetPort`. */
export async function startRecordingProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<RecordingProxy> {
  const heads: string[] = [];
  const server = await startTrackedServer('the recording proxy', (client, track) => {
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    let seen = '';
    const record = (chunk: Buffer): void => {
      seen += chunk.toString('latin1');
      const end = seen.indexOf('\r\n\r\n');
      if (end >= 0 || seen.length > HEAD_LIMIT) {
        heads.push(end >= 0 ? seen.slice(0, end + 4) : seen);
        client.off('data', record);
      }
    };
    client.on('data', record);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return { port: server.port, heads, close: server.close };
}
