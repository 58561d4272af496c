/**
 * @module dashboard/api/session-share
 * An open dashboard tab signs its user in on the gateway's OAuth authorization page in another tab of
 * the same browser. The token stays in this tab's sessionStorage (a new tab has none); the
 * authorization page asks on a `BroadcastChannel`, which only pages of the same origin — the gateway's
 * own — can join, and an open dashboard tab that holds a token answers with it. Nothing is written to
 * a cookie or to localStorage, so closing the last dashboard tab still ends the session.
 */

import { loadToken } from './login-token.js';

/** The channel the authorization page asks on (src/gateway/oauth-server/consent-page.ts). */
export const SESSION_CHANNEL = 'switchboard.session';

/** Answers the authorization page's question while this tab is open; returns the way to stop. */
export function shareSessionWithAuthorizationPage(): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(SESSION_CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown } | null;
    if (data?.type !== 'ask') return;
    const token = loadToken();
    if (token !== undefined) channel.postMessage({ type: 'token', token });
  };
  return () => channel.close();
}
