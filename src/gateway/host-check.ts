/**
 * @module gateway/host-check
 * DNS-rebinding protection: the `Host` of every request and the `Origin` of browser requests must
 * name this gateway — the loopback names by default, plus the bound address and any host the
 * operator allows. A page on another site that resolves its own name to 127.0.0.1 carries that name
 * in `Host`, and its own origin in `Origin`, and is refused with 403 before anything else runs.
 * Requests without `Origin` (every non-browser client) pass the Origin check.
 *
 * An `Origin` on one of the gateway's own names must also have the port the request was sent to (the
 * `Host` header's): a page served by another program on the same machine (`http://localhost:3000`) is
 * another origin, yet the same site for the browser, which sends it the gateway's SameSite cookies.
 * `--allowed-origin` takes an origin (`https://a.example:8443`: that origin exactly) or a bare host name
 * (`a.example`: any port).
 */

import { validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { LOOPBACK_HOSTNAMES } from './gateway-defaults.js';
import { BoundedMemo } from '../util/bounded-memo.js';

/** Options of {@link createHostCheck}. */
export interface HostCheckOptions {
  /** Host names allowed besides the loopback names (`--allowed-host`). */
  allowedHosts?: readonly string[];
  /** Origins (or their host names) allowed besides the loopback names and the allowed hosts (`--allowed-origin`). */
  allowedOrigins?: readonly string[];
}

/** Checks a request's `Host` and `Origin`; returns the refusal, or undefined when it may proceed. */
export type HostCheck = (request: Request) => SwitchboardError | undefined;

/** The host name part of `--allowed-host` / `--allowed-origin` values (`https://a.example:8443` → `a.example`). */
export function hostnameOf(value: string): string {
  const trimmed = value.trim();
  // A bare IPv6 address: the Host header writes it in brackets.
  if (!trimmed.includes('://') && (trimmed.match(/:/g)?.length ?? 0) > 1 && !trimmed.startsWith('[')) return `[${trimmed.toLowerCase()}]`;
  try {
    return new URL(trimmed.includes('://') ? trimmed : `http://${trimmed}`).hostname;
  } catch {
    return trimmed;
  }
}

/** Builds the check. */
export function createHostCheck(options: HostCheckOptions = {}): HostCheck {
  const hosts = [...new Set([...LOOPBACK_HOSTNAMES, ...(options.allowedHosts ?? []).map(hostnameOf)])];
  const allowed = options.allowedOrigins ?? [];
  // `--allowed-origin` values with a scheme allow that origin exactly; bare names allow the name on any port.
  const exactOrigins = new Set(allowed.flatMap((value) => originOf(value) ?? []));
  const anyPort = new Set(allowed.filter((value) => originOf(value) === undefined).map(hostnameOf));
  const origins = [...new Set([...hosts, ...anyPort, ...[...exactOrigins].map(hostnameOf)])];
  // Clients send the same few Host and Origin values on every request: each pair is judged once
  // (the SDK's checks parse a URL: a visible share of a fast-path call, issue 17).
  const hostVerdicts = new BoundedMemo<ReturnType<typeof validateHostHeader>>();
  const originVerdicts = new BoundedMemo<string | undefined>();
  /** Why a page of `originHeader` may not send to `hostHeader`, or undefined when it may. */
  const judgeOrigin = (originHeader: string, hostHeader: string | null): string | undefined => {
    const verdict = validateOriginHeader(originHeader, origins);
    if (!verdict.ok) return verdict.message;
    if (originHeader === '') return undefined;
    const url = new URL(originHeader);
    if (exactOrigins.has(url.origin) || anyPort.has(url.hostname)) return undefined;
    if (hosts.includes(url.hostname) && samePort(url, hostHeader)) return undefined;
    return `Invalid Origin: ${url.origin} is another origin than this gateway's (the request was sent to ${hostHeader ?? 'no Host'})`;
  };
  return (request) => {
    const hostHeader = request.headers.get('host');
    const host = hostVerdicts.get(hostHeader, () => validateHostHeader(hostHeader, hosts));
    if (!host.ok) {
      return new SwitchboardError(ErrorCode.Forbidden, `${host.message}: this gateway answers only to ${hosts.join(', ')}`, {
        hint: 'start the gateway with --allowed-host NAME to accept another name',
      });
    }
    const originHeader = request.headers.get('origin');
    // Almost every request has no Origin: judged without a key.
    if (originHeader === null) return undefined;
    const refused = originVerdicts.get(`${hostHeader ?? ''}\n${originHeader}`, () => judgeOrigin(originHeader, hostHeader));
    if (refused === undefined) return undefined;
    return new SwitchboardError(ErrorCode.Forbidden, `${refused}: requests from web pages must come from this gateway's own origin`, {
      hint: 'start the gateway with --allowed-origin ORIGIN to accept pages of another origin',
    });
  };
}

/** The origin of an `--allowed-origin` value written with a scheme (`https://a.example:8443/` → `https://a.example:8443`). */
function originOf(value: string): string | undefined {
  const trimmed = value.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return undefined;
  try {
    const origin = new URL(trimmed).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * True when `origin` names the port the request was sent to: the `Host` header's port, or — when it
 * has none — the default port of the origin's scheme (a proxy in front may speak https on 443).
 */
function samePort(origin: URL, hostHeader: string | null): boolean {
  const explicit = hostHeader === null ? undefined : /:(\d+)$/.exec(hostHeader)?.[1];
  if (explicit === undefined) return origin.port === '';
  const defaultPort = origin.protocol === 'https:' ? '443' : origin.protocol === 'http:' ? '80' : '';
  return Number(origin.port === '' ? defaultPort : origin.port) === Number(explicit);
}
