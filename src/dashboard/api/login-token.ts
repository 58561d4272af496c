/**
 * @module dashboard/api/login-token
 * Where the dashboard keeps the token: sessionStorage (gone with the tab), never localStorage or a
 * cookie. The one-time login link `http://HOST:PORT/#token=…` carries it in the fragment, which never
 * reaches a server or a log; the page reads it and removes it from the address bar, and stores it only
 * once the person has agreed to sign in as the link's user (anyone can send a link with their own token).
 */

const STORAGE_KEY = 'switchboard.token';

/** The token of a `#token=…` fragment (other parameters ignored), or undefined. */
export function tokenFromFragment(hash: string): string | undefined {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  if (!fragment.startsWith('token=') && !fragment.includes('&token=')) return undefined;
  const token = new URLSearchParams(fragment).get('token')?.trim();
  return token === undefined || token === '' ? undefined : token;
}

/** Takes the token of a login link out of the address bar (if there) and returns it; nothing is stored. */
export function takeLinkToken(): string | undefined {
  const fromLink = tokenFromFragment(window.location.hash);
  // replaceState: the token must not stay in the address bar or in the back/forward history.
  if (fromLink !== undefined) window.history.replaceState(null, '', `${window.location.pathname}${window.location.search}#/servers`);
  return fromLink;
}

export function loadToken(): string | undefined {
  try {
    return window.sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveToken(token: string): void {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, token);
  } catch {
    // Storage refused (private mode quotas): the session lasts until the page is reloaded.
  }
}

export function forgetToken(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}
