/**
 * @module dashboard/components/app
 * The sign-in gate: checks the token with `GET /api/me`, then opens the session (API client and
 * event stream) for the pages.
 */

import { useEffect, useState } from 'preact/hooks';
import { ApiClient } from '../api/api-client.js';
import { ApiError } from '../api/api-error.js';
import { forgetToken, saveToken, takeLoginToken, tokenFromFragment } from '../api/login-token.js';
import { EventHub } from '../state/event-hub.js';
import { SessionContext, type Session } from '../state/session.js';
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

export function App({ initialToken }: { initialToken: string | undefined }) {
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [pending, setPending] = useState(initialToken !== undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);

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

  const signOut = (): void => {
    session?.events.close();
    forgetToken();
    setSession(undefined);
    setProblem(undefined);
  };

  useEffect(() => {
    if (initialToken !== undefined) void signIn(initialToken);
    // A login link opened in a tab that already shows the dashboard changes only the fragment.
    const onHashChange = (): void => {
      if (tokenFromFragment(window.location.hash) === undefined) return;
      const token = takeLoginToken();
      if (token !== undefined) void signIn(token);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);

  useEffect(() => () => session?.events.close(), [session]);

  if (session === undefined) return <SignIn pending={pending} problem={problem} onSubmit={(token) => void signIn(token)} />;
  return (
    <SessionContext.Provider value={session}>
      <Shell onSignOut={signOut} />
    </SessionContext.Provider>
  );
}
