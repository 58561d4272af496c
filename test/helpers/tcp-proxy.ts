/**
 * A loopback TCP proxy to a real server (e.g. PostgreSQL on 127.0.0.1:5432) that a test can cut and
 * restore: a database "blip" for one test's connections without touching the shared server.
 */
import { connect } from 'node:net';
import { startTrackedServer } from './tracked-server.js';

export interface TcpProxy {
  port: number;
  /** Connections made through the proxy so far. */
  readonly connections: number;
  /** Resets every open connection and refuses (resets) new ones until {@link restore}. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1 (port 0) forwarding to `targetHost:targetPort`. */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  let isCut = false;
  let connections = 0;
  const server = await startTrackedServer('the proxy', (client, track) => {
    if (isCut) {
      client.resetAndDestroy();
      return;
    }
    connections++;
    const upstream = connect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    // A reset on either side resets the other, as a dying server's connections do.
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => (client.destroyed ? undefined : client.resetAndDestroy()));
  });
  return {
    port: server.port,
    get connections() {
      return connections;
    },
    cut() {
      isCut = true;
      for (const socket of server.sockets) socket.resetAndDestroy();
    },
    restore() {
      isCut = false;
    },
    close: server.close,
  };
}
