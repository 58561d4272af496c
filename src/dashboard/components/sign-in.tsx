/**
 * @module dashboard/components/sign-in
 * The sign-in page: paste the gateway token (or open the login link `switchboard serve` printed).
 */

import { useEffect, useRef, useState } from 'preact/hooks';

export interface SignInProps {
  pending: boolean;
  problem: string | undefined;
  onSubmit: (token: string) => void;
}

export function SignIn({ pending, problem, onSubmit }: SignInProps) {
  const [token, setToken] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), [problem]);
  return (
    <main class="sign-in" id="main">
      <form
        class="card sign-in-card"
        aria-labelledby="sign-in-title"
        onSubmit={(event) => {
          event.preventDefault();
          if (token.trim() !== '') onSubmit(token.trim());
        }}
      >
        <h1 id="sign-in-title">Switchboard</h1>
        <p class="muted">Sign in with your gateway token. <code>switchboard serve</code> prints a login link that signs this tab in.</p>
        <label for="token">Gateway token</label>
        <input
          id="token"
          ref={input}
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={token}
          aria-invalid={problem !== undefined}
          aria-describedby={problem === undefined ? undefined : 'sign-in-problem'}
          onInput={(event) => setToken(event.currentTarget.value)}
          required
        />
        {problem === undefined ? null : (
          <p id="sign-in-problem" class="problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" class="primary" disabled={pending || token.trim() === ''}>
          {pending ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
