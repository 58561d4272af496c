/**
 * @module gateway/host-check
 * DNS-rebinding protection: the `Host` of every request and the `Origin` of browser requests must
 * name this gateway — the loopback names by default, plus the bound address and any host the
 * operator allows. A page on another site that resolves its own name to 127.0.0.1 carries that name
 * in `Host`, and its own origin in `Origin`, and is refused with 403 before anything else runs.
 * Requests without `Origin` (every non-browser client) pass the Origin check.
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
  const origins = [...new Set([...hosts, ...(options.allowedOrigins ?? []).map(hostnameOf)])];
  // Clients send the same few Host and Origin values on every request: each value is judged once
  // (the SDK's checks parse a URL: a visible share of a fast-path call, issue 17).
  const hostVerdicts = new BoundedMemo<ReturnType<typeof validateHostHeader>>();
  const originVerdicts = new BoundedMemo<ReturnType<typeof validateOriginHeader>>();
  return (request) => {
    const hostHeader = request.headers.get('host');
    const host = hostVerdicts.get(hostHeader, () => validateHostHeader(hostHeader, hosts));
    if (!host.ok) {
      return new SwitchboardError(ErrorCode.Forbidden, `${host.message}: this gateway answers only to ${hosts.join(', ')}`, {
        hint: 'start the gateway with --allowed-host NAME to accept another name',
      });
    }
    const originHeader = request.headers.get('origin');
    const origin = originVerdicts.get(originHeader, () => validateOriginHeader(originHeader, origins));
    if (!origin.ok) {
      return new SwitchboardError(ErrorCode.Forbidden, `${origin.message}: requests from web pages must come from this gateway's own origin`, {
        hint: 'start the gateway with --allowed-origin ORIGIN to accept pages of another origin',
      });
    }
    return undefined;
  };
}
