/**
 * @module dashboard/components/link-sign-in
 * What a login link (`#token=…`) shows before it signs the tab in: whose account it opens, and a
 * choice. A link carries whoever's token its sender put in it; signed in silently, a person could go
 * on to add servers and secrets to someone else's account (login CSRF). In a signed-in tab, a link
 * that cannot sign in (a refused token, a failed sign-in) says why here and leaves the tab as it was.
 */

import { useEffect, useRef } from 'preact/hooks';

export type LinkSignInProps = {
  /** Who this tab is signed in as now, if anyone. */
  current: string | undefined;
  onDecline: () => void;
} & (
  | { /** The user the link's token belongs to. */ name: string; admin: boolean; onAccept: () => void; problem?: undefined }
  | { /** Why the link cannot sign this tab in. */ problem: string; name?: undefined }
);

export function LinkSignIn(props: LinkSignInProps) {
  const { current, onDecline } = props;
  const decline = useRef<HTMLButtonElement>(null);
  // The safe choice has the focus: Enter on an unexpected page does not sign in.
  useEffect(() => decline.current?.focus(), []);
  const stay = current === undefined ? 'Do not sign in' : `Stay signed in as ${current}`;
  if (props.problem !== undefined) {
    return (
      <main class="sign-in" id="main">
        <section class="card sign-in-card" aria-labelledby="link-sign-in-title">
          <h1 id="link-sign-in-title">This login link cannot sign you in</h1>
          <p class="problem" role="alert">
            {props.problem}
          </p>
          <button type="button" ref={decline} onClick={onDecline}>
            {current === undefined ? 'Back' : `Back to the dashboard as ${current}`}
          </button>
        </section>
      </main>
    );
  }
  const { name, admin, onAccept } = props;
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
          {stay}
        </button>
      </section>
    </main>
  );
}
