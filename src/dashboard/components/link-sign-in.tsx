/**
 * @module dashboard/components/link-sign-in
 * What a login link (`#token=…`) shows before it signs the tab in: whose account it opens, and a
 * choice. A link carries whoever's token its sender put in it; signed in silently, a person could go
 * on to add servers and secrets to someone else's account (login CSRF).
 */

import { useEffect, useRef } from 'preact/hooks';

export interface LinkSignInProps {
  /** The user the link's token belongs to. */
  name: string;
  admin: boolean;
  /** Who this tab is signed in as now, if anyone. */
  current: string | undefined;
  onAccept: () => void;
  onDecline: () => void;
}

export function LinkSignIn({ name, admin, current, onAccept, onDecline }: LinkSignInProps) {
  const decline = useRef<HTMLButtonElement>(null);
  // The safe choice has the focus: Enter on an unexpected page does not sign in.
  useEffect(() => decline.current?.focus(), []);
  return (
    <main class="sign-in" id="main">
      <section class="card sign-in-card" aria-labelledby="link-sign-in-title">
        <h1 id="link-sign-in-title">Sign in as {name}?</h1>
        <p>
          This login link signs this tab in as <strong>{name}</strong>
          {admin ? ', an administrator' : ''}.
        </p>
        <p class="muted">Continue only if the link is your own, such as the one <code>switchboard serve</code> printed. What you do here after signing in with someone else's link is done in their account.</p>
        {current === undefined ? null : <p class="muted">This tab is signed in as {current} now.</p>}
        <button type="button" class="primary" onClick={onAccept}>
          Sign in as {name}
        </button>
        <button type="button" ref={decline} onClick={onDecline}>
          {current === undefined ? 'Do not sign in' : `Stay signed in as ${current}`}
        </button>
      </section>
    </main>
  );
}
