/**
 * An OAuth client written out by hand over fetch, for the security tests of the gateway's
 * authorization server: it registers, sends the person's browser steps as plain requests (the same
 * sign-in and consent forms the browser posts, with the cookies the server set), and exchanges codes —
 * so each test can change one parameter and see the refusal.
 */
import { createHash, randomBytes } from 'node:crypto';

/** A PKCE pair (S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Registers a public client (RFC 7591); the response as it came. */
export async function registerClient(base: string, metadata: Record<string, unknown>): Promise<Response> {
  return fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...metadata }) });
}

/** A cookie jar of one "browser". */
class Jar {
  readonly #cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute)) || value === '';
      if (expired) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Where the authorization ended: the redirect to the client (with `code` or `error`), or the page the server showed. */
export type AuthorizationOutcome = { kind: 'redirect'; url: URL } | { kind: 'page'; status: number; text: string };

/**
 * Walks the authorization: GET the authorization URL, sign in with `token` on the sign-in form, Allow
 * (or Deny) on the consent form, follow the server's redirects — until one leaves the gateway.
 */
export async function authorize(base: string, params: Record<string, string>, options: { token: string; deny?: boolean }): Promise<AuthorizationOutcome> {
  const jar = new Jar();
  let next: { url: string; method: 'GET' | 'POST'; body?: string } = { url: `${base}/oauth/authorize?${new URLSearchParams(params).toString()}`, method: 'GET' };
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, {
      method: next.method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(next.body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
      ...(next.body === undefined ? {} : { body: next.body }),
      signal: AbortSignal.timeout(10_000),
    });
    jar.take(response);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      const url = new URL(location, next.url);
      if (url.origin !== base) return { kind: 'redirect', url };
      next = { url: url.href, method: 'GET' };
      continue;
    }
    const text = await response.text();
    const form = /<form id="signin" method="post" action="([^"]+)"/.exec(text);
    if (form?.[1] !== undefined && !text.includes('data-failed="1"')) {
      next = { url: new URL(form[1], base).href, method: 'POST', body: new URLSearchParams({ token: options.token }).toString() };
      continue;
    }
    const consent = /action="([^"]+\/(allow|deny))"/g;
    const actions = [...text.matchAll(consent)].map((match) => match[1] ?? '');
    const action = actions.find((path) => path.endsWith(options.deny === true ? '/deny' : '/allow'));
    if (action !== undefined) {
      next = { url: new URL(action, base).href, method: 'POST', body: '' };
      continue;
    }
    return { kind: 'page', status: response.status, text };
  }
  throw new Error('the authorization did not end within 20 steps');
}

/** The token endpoint's answer. */
export async function tokenRequest(base: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
