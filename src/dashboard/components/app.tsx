/**
 * @module dashboard/components/app
 * The sign-in gate: checks the token with `GET /api/me`, then opens the session (API client and
 * event stream) for the pages. A login link's token is checked the same way, then the person is asked
 * whether to sign in as its user (see link-sign-in) before anything is stored.
 */

import { useEffect, useState } from 'preact/hooks';
import { ApiClient } from '../api/api-client.js';
import { ApiError } from '../api/api-error.js';
import { forgetToken, loadToken, saveToken, takeLinkToken, tokenFromFragment } from '../api/login-token.js';
import { EventHub } from '../state/event-hub.js';
import { SessionContext, type Session } from '../state/session.js';
import { LinkSignIn } from './link-sign-in.js';
import { Shell } from './shell.js';
import { SignIn } from './sign-in.js';

/** Why a token was not accepted, in words for the sign-in page. */
export function signInProblem(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return 'The gateway refused this token: it is not a token of this gateway, or it was revoked. Use the token that switchboard serve printed (or its login link), or the one in .switchboard/token.';
    if (error.status === 403) return `The gateway refused the request: ${error.message}`;
    return `${error.message}${error.hint === undefined ? '' : ` — ${error.hint}`}`;
  }
  return 'The gateway cannot be reached.';
}

/** A login link's token, checked, waiting for the person's answer. */
interface OfferedLink {
  token: string;
  name: string;
  admin: boolean;
}

export function App({ initialToken, linkToken }: { initialToken: string | undefined; linkToken?: string | undefined }) {
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [pending, setPending] = useState(initialToken !== undefined || linkToken !== undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [offered, setOffered] = useState<OfferedLink | undefined>(undefined);

  const signIn = async (token: string): Promise<void> => {
    setPending(true);
    setProblem(undefined);
    let signedIn = false;
    const api = new ApiClient(window.location.href, token, () => {
      // The token was accepted before: it has been revoked or has expired since.
      if (!signedIn) return;
      signedIn = false;
      forgetToken();
      setSession(undefined);
      setProblem('The gateway no longer accepts your token (it was revoked or has expired). Sign in again.');
    });
    try {
      const { user } = await api.me();
      saveToken(token);
      signedIn = true;
      setSession({ api, user, events: new EventHub(api.eventsUrl()) });
    } catch (error) {
      forgetToken();
      setProblem(signInProblem(error));
    } finally {
      setPending(false);
    }
  };

  /** Checks a login link's token and asks whether to sign in as its user. */
  const offer = async (token: string): Promise<void> => {
    setPending(true);
    setProblem(undefined);
    try {
      const { user } = await new ApiClient(window.location.href, token, () => {}).me();
      setOffered({ token, name: user.name, admin: user.admin });
    } catch (error) {
      setProblem(signInProblem(error));
    } finally {
      setPending(false);
    }
  };

  const accept = (link: OfferedLink): void => {
    setOffered(undefined);
    session?.events.close();
    setSession(undefined);
    void signIn(link.token);
  };

  const decline = (): void => {
    setOffered(undefined);
    // The tab goes on as it was: signed in with its own token, if it has one.
    const stored = session === undefined ? loadToken() : undefined;
    if (stored !== undefined) void signIn(stored);
  };

  const signOut = (): void => {
    session?.events.close();
    forgetToken();
    setSession(undefined);
    setProblem(undefined);
  };

  useEffect(() => {
    if (linkToken !== undefined) void offer(linkToken);
    else if (initialToken !== undefined) void signIn(initialToken);
    // A login link opened in a tab that already shows the dashboard changes only the fragment.
    const onHashChange = (): void => {
      if (tokenFromFragment(window.location.hash) === undefined) return;
      const token = takeLinkToken();
      if (token !== undefined) void offer(token);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  useEffect(() => () => session?.events.close(), [session]);

  if (offered !== undefined) return <LinkSignIn name={offered.name} admin={offered.admin} current={session?.user.name} onAccept={() => accept(offered)} onDecline={decline} />;
  if (session === undefined) return <SignIn pending={pending} problem={problem} onSubmit={(token) => void signIn(token)} />;
  return (
    <SessionContext.Provider value={session}>
      <Shell onSignOut={signOut} />
    </SessionContext.Provider>
  );
}
