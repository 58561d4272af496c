/**
 * @module dashboard/components/app
 * The sign-in gate: checks the token with `GET /api/me`, then opens the session (API client and
 * event stream) for the pages. A login link's token is checked the same way, then the person is asked
 * whether to sign in as its user (see link-sign-in) before anything is stored.
 */

import { useEffect, useRef, useState } from 'preact/hooks';
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

/** A login link's token, checked, waiting for the person's answer; or why it cannot sign this tab in. */
type OfferedLink = { token: string; name: string; admin: boolean; problem?: undefined } | { token: string; problem: string };

export function App({ initialToken, linkToken }: { initialToken: string | undefined; linkToken?: string | undefined }) {
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [pending, setPending] = useState(initialToken !== undefined || linkToken !== undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [offered, setOffered] = useState<OfferedLink | undefined>(undefined);
  const [checkingLink, setCheckingLink] = useState(linkToken !== undefined);
  // A page opened with a link shows neither the sign-in form nor the pages until the link's question is ready.
  const [booting, setBooting] = useState(linkToken !== undefined);
  // For the handlers made in the first render (hashchange): the session now, and the latest link.
  const current = useRef<Session | undefined>(undefined);
  current.current = session;
  const latestLink = useRef(0);

  /** Signs in with `token`; returns why it failed (the tab's session and stored token stay as they were then). */
  const signIn = async (token: string): Promise<string | undefined> => {
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
      return undefined;
    } catch (error) {
      // Only this token is forgotten: a link's token that failed leaves the tab's own one in place.
      if (loadToken() === token) forgetToken();
      return signInProblem(error);
    } finally {
      setPending(false);
    }
  };

  /** Signs in from the sign-in page (or with the tab's stored token): a failure is shown there. */
  const signInHere = async (token: string): Promise<void> => {
    const failed = await signIn(token);
    if (failed !== undefined) setProblem(failed);
  };

  /** Checks a login link's token and asks whether to sign in as its user; only the latest link is asked about. */
  const offer = async (token: string): Promise<void> => {
    const link = ++latestLink.current;
    setCheckingLink(true);
    try {
      const { user } = await new ApiClient(window.location.href, token, () => {}).me();
      if (link === latestLink.current) setOffered({ token, name: user.name, admin: user.admin });
    } catch (error) {
      if (link !== latestLink.current) return;
      // Signed in, the tab is told on the question's card; signed out, on the sign-in page.
      if (current.current === undefined) {
        setOffered(undefined);
        setProblem(signInProblem(error));
      } else setOffered({ token, problem: signInProblem(error) });
    } finally {
      if (link === latestLink.current) setCheckingLink(false);
    }
  };

  const accept = async (link: OfferedLink): Promise<void> => {
    latestLink.current++;
    setOffered(undefined);
    const failed = await signIn(link.token);
    if (failed === undefined) return;
    if (current.current === undefined) setProblem(failed);
    else setOffered({ token: link.token, problem: failed });
  };

  const signOut = (): void => {
    session?.events.close();
    forgetToken();
    setSession(undefined);
    setProblem(undefined);
  };

  useEffect(() => {
    // The tab's own token first, so that the question can say who the tab is signed in as.
    void (async () => {
      if (initialToken !== undefined) {
        const failed = await signIn(initialToken);
        if (failed !== undefined && linkToken === undefined) setProblem(failed);
      }
      if (linkToken !== undefined) await offer(linkToken);
      setBooting(false);
    })();
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

  if (offered !== undefined) {
    const decline = (): void => {
      latestLink.current++;
      setOffered(undefined);
    };
    return offered.problem === undefined ? (
      <LinkSignIn key={offered.token} name={offered.name} admin={offered.admin} current={session?.user.name} onAccept={() => void accept(offered)} onDecline={decline} />
    ) : (
      <LinkSignIn key={offered.token} problem={offered.problem} current={session?.user.name} onDecline={decline} />
    );
  }
  if (session === undefined || booting) return <SignIn pending={pending || checkingLink} problem={problem} onSubmit={(token) => void signInHere(token)} />;
  return (
    <SessionContext.Provider value={session}>
      <Shell onSignOut={signOut} />
    </SessionContext.Provider>
  );
}
