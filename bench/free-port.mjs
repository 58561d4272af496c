/**
 * A free TCP port on 127.0.0.1 for a gateway the bench starts.
 */

import net from 'node:net';

/** A port nothing listens on now (the OS picks it; it is closed again before it is returned). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
