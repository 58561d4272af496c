/**
 * @module gateway/oauth-server/redirect-policy
 * Which redirect URIs a dynamically registered client may have: https anywhere (or, when the admin
 * restricts registration, only on the listed hosts), http only on a loopback address (RFC 8252
 * §7.3: native apps, any port), or a private-use scheme with a dot (RFC 8252 §7.1, `com.example.app:`).
 * Never a fragment, never `javascript:`/`data:`/`file:`.
 */

/** The admin's restriction of dynamic registration. */
export interface RedirectPolicy {
  /** Hosts (`claude.ai`, `*.example.com`) https redirects may go to; undefined: any. Loopback is always allowed. */
  redirectHosts?: string[];
}

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:']);

/** Why the redirect URIs are refused, or undefined. */
export function checkRedirectUris(uris: unknown, policy: RedirectPolicy): string | undefined {
  if (!Array.isArray(uris) || uris.length === 0) return 'redirect_uris must be a non-empty array';
  for (const uri of uris) {
    if (typeof uri !== 'string' || !URL.canParse(uri)) return `redirect_uri ${JSON.stringify(uri)} is not a URL`;
    const url = new URL(uri);
    if (url.hash !== '') return `redirect_uri ${uri} must not have a fragment`;
    if (url.protocol === 'http:') {
      if (!LOOPBACK.has(url.hostname)) return `redirect_uri ${uri} uses http on a host that is not loopback; use https`;
      continue;
    }
    if (url.protocol === 'https:') {
      if (policy.redirectHosts !== undefined && !policy.redirectHosts.some((host) => hostMatches(url.hostname, host))) {
        return `redirect_uri ${uri} is on a host this gateway does not allow for registration (allowed: ${policy.redirectHosts.join(', ') || 'none'})`;
      }
      continue;
    }
    if (FORBIDDEN_SCHEMES.has(url.protocol)) return `redirect_uri ${uri} uses a forbidden scheme`;
  }
  return undefined;
}

function hostMatches(hostname: string, pattern: string): boolean {
  const host = hostname.toLowerCase();
  const wanted = pattern.toLowerCase();
  return wanted.startsWith('*.') ? host.endsWith(wanted.slice(1)) : host === wanted;
}
