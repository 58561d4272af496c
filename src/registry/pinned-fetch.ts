/**
 * @module registry/pinned-fetch
 * The `fetch` a tenant's HTTP servers connect through. It enforces the SSRF rules where the
 * connection is made, not only at registration:
 * - every new connection resolves the host, refuses it if ANY address is forbidden, and connects to
 *   a checked address; the first checked answer is pinned for the life of this fetch, so a rebinding
 *   DNS server cannot switch the host to an internal address later;
 * - IP-literal hosts are checked before the request;
 * - redirects are followed here, one hop at a time, each re-checked (scheme, host, addresses), and
 *   credentials are not carried to another origin.
 */

import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { FetchLike } from '@modelcontextprotocol/client';
import { isSwitchboardError, type SwitchboardError } from '../errors.js';
import { noopLogger, type Logger } from '../logger.js';
import { resolveWithin, systemResolver, type HostResolver } from './resolve-host.js';
import { checkAddress, checkUrlScheme, policyViolationError, type PolicyViolation, type TenantPolicy } from './tenant-policy.js';

/** Redirects followed at most. @default 5 */
export const DEFAULT_MAX_REDIRECTS = 5;
/** Headers kept when a redirect leaves the origin (everything else may carry credentials). */
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'content-type', 'mcp-protocol-version', 'last-event-id']);

/** Options of {@link createPinnedFetch}. */
export interface PinnedFetchOptions {
  policy: Pick<TenantPolicy, 'allowHttpHosts' | 'allowAddresses'>;
  /** @default the system resolver */
  resolveHost?: HostResolver;
  /** @default DEFAULT_MAX_REDIRECTS */
  maxRedirects?: number;
  /** Named in refusals. */
  subject?: string;
  logger?: Logger;
  /** Certificate authorities (PEM) trusted besides the system's, e.g. a private CA. @default the system's only */
  ca?: string;
}

/** A policy-enforcing fetch and the connection pool behind it. */
export interface PinnedFetch {
  fetch: FetchLike;
  /** Closes the pooled connections. Idempotent. */
  close(): Promise<void>;
}

/** Carries a refusal through undici's error wrapping. */
class AddressRefused extends Error {
  constructor(readonly error: SwitchboardError) {
    super(error.message);
    this.name = 'AddressRefused';
  }
}

/** Creates a fetch that connects only to addresses the policy allows. */
export async function createPinnedFetch(options: PinnedFetchOptions): Promise<PinnedFetch> {
  const { Agent, fetch: undiciFetch } = await import('undici');
  const resolver = options.resolveHost ?? systemResolver;
  const logger = options.logger ?? noopLogger;
  const subject = options.subject ?? 'the server';
  const pinned = new Map<string, Promise<LookupAddress[]>>();

  const refuse = (violations: PolicyViolation[]): AddressRefused => new AddressRefused(policyViolationError(violations, `connecting to ${subject}`));

  const resolveChecked = (hostname: string): Promise<LookupAddress[]> => {
    let answer = pinned.get(hostname);
    if (answer === undefined) {
      answer = (async () => {
        let addresses: string[];
        try {
          addresses = await resolveWithin(resolver, hostname);
        } catch (error) {
          throw refuse([{ rule: 'unresolvable-host', message: `${hostname} does not resolve (${error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error)})` }]);
        }
        for (const address of addresses) {
          const violation = checkAddress(address, hostname, options.policy);
          if (violation !== undefined) throw refuse([violation]);
        }
        logger.debug('pinned the addresses of a tenant server host', { host: hostname, addresses });
        return addresses.map((address) => ({ address, family: isIP(address) }));
      })();
      // A failed answer is not pinned: the next connection resolves again (and is checked again).
      answer.catch(() => pinned.delete(hostname));
      pinned.set(hostname, answer);
    }
    return answer;
  };

  const agent = new Agent({
    connect: {
      // Node's `ca` replaces the default list: keep the system's roots beside the added one.
      ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
      lookup: (hostname: string, lookupOptions: LookupOptions, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
        resolveChecked(hostname).then(
          (addresses) => {
            const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : lookupOptions.family;
            const usable = family === 4 || family === 6 ? addresses.filter((address) => address.family === family) : addresses;
            const first = usable[0];
            if (first === undefined) {
              callback(Object.assign(new Error(`${hostname} has no IPv${String(family)} address`), { code: 'ENOTFOUND' }), []);
              return;
            }
            if (lookupOptions.all === true) callback(null, usable);
            else callback(null, first.address, first.family);
          },
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
        );
      },
    },
  });

  const checkUrl = (url: URL): void => {
    const violations: PolicyViolation[] = [];
    const scheme = checkUrlScheme(url, options.policy);
    if (scheme !== undefined) violations.push(scheme);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (scheme?.rule !== 'url-scheme' && isIP(host) !== 0) {
      const violation = checkAddress(host, host, options.policy);
      if (violation !== undefined) violations.push(violation);
    }
    if (violations.length > 0) throw refuse(violations).error;
  };

  const pinnedFetch: FetchLike = async (input, init) => {
    let url = new URL(typeof input === 'string' ? input : input.toString());
    let method = (init?.method ?? 'GET').toUpperCase();
    let headers = new Headers(init?.headers);
    let body = await bodyOf(init?.body);
    const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
    for (let hop = 0; ; hop++) {
      checkUrl(url);
      let response: Awaited<ReturnType<typeof undiciFetch>>;
      try {
        response = await undiciFetch(url, {
          method,
          headers: Object.fromEntries(headers.entries()),
          ...(body === undefined ? {} : { body }),
          ...(init?.signal === undefined || init.signal === null ? {} : { signal: init.signal }),
          redirect: 'manual',
          dispatcher: agent,
        });
      } catch (error) {
        const refused = findRefusal(error);
        if (refused !== undefined) throw refused;
        throw error;
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || location === null) return toGlobalResponse(response);
      await response.body?.cancel().catch(() => {});
      if (hop >= maxRedirects) {
        throw policyViolationError([{ rule: 'forbidden-address', message: `more than ${maxRedirects} redirects` }], `connecting to ${subject}`);
      }
      const next = new URL(location, url);
      if (next.origin !== url.origin) {
        headers = new Headers([...headers.entries()].filter(([name]) => CROSS_ORIGIN_HEADERS.has(name.toLowerCase())));
      }
      // 303 (and 301/302 after a POST, as browsers do) turn into a GET without a body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
      logger.debug('following a redirect of a tenant server', { from: url.origin, to: next.origin, status: response.status });
      url = next;
    }
  };

  let closing: Promise<void> | undefined;
  return {
    fetch: pinnedFetch,
    close: () => {
      closing ??= agent.close().catch(() => agent.destroy());
      return closing;
    },
  };
}

async function bodyOf(body: RequestInit['body'] | undefined): Promise<string | Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // Anything else (a stream, a Blob, form data) is read once so it can be sent again after a 307/308.
  return new Uint8Array(await new Response(body).arrayBuffer());
}

function findRefusal(error: unknown): SwitchboardError | undefined {
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    if (current instanceof AddressRefused) return current.error;
    if (isSwitchboardError(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

/** undici's Response as the platform's, which is what the MCP SDK's types expect. */
function toGlobalResponse(response: { status: number; statusText: string; headers: Iterable<[string, string]>; body: ReadableStream<Uint8Array> | null }): Response {
  return new Response(NULL_BODY_STATUS.has(response.status) ? null : response.body, {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
  });
}
