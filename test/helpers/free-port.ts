/**
 * Free TCP ports on 127.0.0.1 for servers that must be told their port (they cannot listen on port 0
 * and report it), and for URLs where nothing may listen.
 *
 * A port is drawn below the kernel's ephemeral range (`ip_local_port_range`), not from it: the kernel
 * hands ports of that range to every `listen(0)` and outgoing connection on the machine, and a port
 * probed free there and released was taken by another test's server about once in 7,000 `listen(0)`s
 * made before ours bound it (our fixture then exited with EADDRINUSE, and the test spoke to the other
 * server). Below the range only another `freePort` can pick it: each vitest worker draws from its own
 * slice, and this process never hands out the same port twice.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The lowest port drawn from. */
const LOWEST_PORT = 20_000;
/** Slices of [LOWEST_PORT, ephemeral range): a worker draws from slice `VITEST_POOL_ID mod SLICES`. */
const SLICES = 8;
/** Draws before falling back to the kernel's choice (a slice almost full, or busy). */
const DRAWS = 50;

/** Ports handed out by this process: two probes in a row could otherwise find the same one free. */
const handedOut = new Set<number>();

/** A free TCP port on 127.0.0.1 (see the module comment for why it is not the kernel's choice). */
export async function freePort(): Promise<number> {
  const slice = workerSlice();
  if (slice !== undefined) {
    for (let draw = 0; draw < DRAWS; draw++) {
      const port = slice.from + Math.floor(Math.random() * (slice.to - slice.from));
      if (handedOut.has(port)) continue;
      if ((await probe(port)) === port) {
        handedOut.add(port);
        return port;
      }
    }
  }
  // No /proc (not Linux), a range too small to slice, or the slice is full: the kernel's choice.
  for (;;) {
    const port = await probe(0);
    if (port !== undefined && !handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

/** This worker's slice of the ports below the ephemeral range, or undefined when that range is unknown. */
function workerSlice(): { from: number; to: number } | undefined {
  const ephemeralLow = ephemeralRangeStart();
  if (ephemeralLow === undefined) return undefined;
  const size = Math.floor((ephemeralLow - LOWEST_PORT) / SLICES);
  if (size < 100) return undefined;
  const worker = Number(process.env.VITEST_POOL_ID ?? 0);
  const index = (Number.isInteger(worker) && worker > 0 ? worker : 0) % SLICES;
  const from = LOWEST_PORT + index * size;
  return { from, to: from + size };
}

function ephemeralRangeStart(): number | undefined {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST_PORT ? low : undefined;
  } catch {
    return undefined;
  }
}

/** Listens on `port` (0: any) and closes again; the port it got, or undefined when it is taken. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolvePort(undefined) : reject(error)));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address !== null ? address.port : undefined;
      server.close(() => resolvePort(bound));
    });
  });
}
