/**
 * @module registry/resolve-host
 * Host name → every address it resolves to. The default uses the system resolver (`getaddrinfo`, so
 * `/etc/hosts` counts, as it does when connecting); tests and deployments may pass their own.
 */

import { lookup } from 'node:dns/promises';
import { ErrorCode, SwitchboardError } from '../errors.js';

/** Resolves a host name to all its addresses (IPv4 and IPv6). Rejects when it does not resolve. */
export type HostResolver = (hostname: string) => Promise<string[]>;

/** How long a resolution may take before the host counts as unresolvable. @default 5000 */
export const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

/** The system resolver: every address `getaddrinfo` returns. */
export const systemResolver: HostResolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((result) => result.address);
};

/** Resolves with a deadline; fails closed (rejects) on timeout or an empty answer. */
export async function resolveWithin(resolver: HostResolver, hostname: string, timeoutMs: number = DEFAULT_RESOLVE_TIMEOUT_MS): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SwitchboardError(ErrorCode.RequestTimeout, `resolving ${hostname} took longer than ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const addresses = await Promise.race([resolver(hostname), deadline]);
    if (addresses.length === 0) throw new SwitchboardError(ErrorCode.ServerDisconnected, `${hostname} has no addresses`);
    return addresses;
  } finally {
    clearTimeout(timer);
  }
}
