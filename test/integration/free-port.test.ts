/**
 * The test helper `freePort`: its ports lie below the kernel's ephemeral range, so no other
 * server's `listen(0)` (nor an outgoing connection) can be given one between the probe and the bind.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { expect, test } from 'vitest';
import { freePort } from '../helpers/free-port.js';

const range = (() => {
  try {
    return readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  } catch {
    return undefined;
  }
})();

test.skipIf(range === undefined)('ports are outside the ephemeral range, distinct, and free to listen on', async () => {
  const low = range?.[0] ?? 0;
  const ports: number[] = [];
  for (let index = 0; index < 20; index++) ports.push(await freePort());
  for (const port of ports) expect(port).toBeLessThan(low);
  expect(new Set(ports).size).toBe(ports.length);
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ports[0], '127.0.0.1', resolve);
  });
  await new Promise((resolve) => server.close(resolve));
});
