/**
 * @module connection/url-elicitation
 * URL-mode elicitation (MCP 2025-11-25: `elicitation/create` with `mode: "url"` sends the user to a
 * page outside the client — a sign-in, a payment). The URL is only ever shown to the user, never
 * opened by this library, and only `https:` (or `http:` on a loopback address, for local tools)
 * URLs without credentials are passed on; anything else is refused with the reason.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import { isUrlElicitation } from './mcp-types.js';

export { isUrlElicitation };

/** Longest URL passed on. */
export const MAX_ELICITATION_URL_CHARS = 4_096;


/** Why a URL may not be shown to the user, or undefined when it may. */
export function unsafeElicitationUrl(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'it has no `url`';
  if (value.length > MAX_ELICITATION_URL_CHARS) return `its URL is longer than ${MAX_ELICITATION_URL_CHARS} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'its `url` is not a URL';
  }
  if (url.username !== '' || url.password !== '') return 'its URL carries credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined;
  return `its URL is ${url.protocol}${url.protocol === 'http:' ? ' to a host that is not loopback' : ''}; only https: (or http: on a loopback address) is accepted`;
}

/** Throws unless a URL-mode request may go to the user. */
export function checkUrlElicitation(params: Record<string, unknown>, server: string): void {
  const problem = unsafeElicitationUrl(params.url);
  if (problem !== undefined) {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `server "${server}" asked the user to open a URL that was refused: ${problem}`, { server, operation: 'elicitation/create', reason: `URL refused: ${problem}` });
  }
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The params of an elicitation the host may see: a URL-mode one only when declared and safe. */
export function guardedElicitation(params: Record<string, unknown>, server: string, urlDeclared: boolean): Record<string, unknown> {
  if (!isUrlElicitation(params)) return params;
  if (!urlDeclared) {
    throw new SwitchboardError(ErrorCode.CapabilityNotSupported, `server "${server}" sent a URL-mode elicitation, which this client did not declare`, { server, operation: 'elicitation/create' });
  }
  checkUrlElicitation(params, server);
  return params;
}
