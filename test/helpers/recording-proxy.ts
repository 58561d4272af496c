/**
 * A loopback TCP proxy that keeps the head (request line and headers) of the first request on each
 * connection: a test sees the exact bytes a real client (HAProxy's health check) sent, while the real
 * server behind still answers them.
 */
import { connect, createServer, type Socket } from 'node:net';

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
  const sockets = new Set<Socket>();
  const heads: string[] = [];
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const server = createServer((client) => {
    track(client);
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
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the recording proxy has no port');
  return {
    port: address.port,
    heads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
