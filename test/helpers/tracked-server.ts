/**
 * A TCP server on loopback for a test's proxies: every socket it is given to track (the accepted ones
 * and their upstream connections) is destroyed on `close()`, so nothing outlives the test.
 */
import { createServer, type Socket } from 'node:net';

/** A listening server and the sockets it tracks. */
export interface TrackedServer {
  port: number;
  /** The open tracked sockets. */
  readonly sockets: ReadonlySet<Socket>;
  /** Destroys every tracked socket, then closes the server. */
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 (port 0); each accepted connection is tracked, then given to `onConnection`
 * with `track` for the sockets it opens. `name` says whose port is missing in the error.
 */
export async function startTrackedServer(name: string, onConnection: (client: Socket, track: (socket: Socket) => void) => void): Promise<TrackedServer> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  };
  const server = createServer((client) => {
    track(client);
    onConnection(client, track);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error(`${name} has no port`);
  return {
    port: address.port,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
