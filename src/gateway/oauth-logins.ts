/**
 * @module gateway/oauth-logins
 * Logins started from the gateway (`POST /api/servers/:name/login`): the person's browser goes to the
 * authorization server and comes back to the gateway's `/oauth/callback`, which hands the redirect to
 * the login waiting for it. A login is found by its `state` (unguessable, bound to one user and
 * server) and must come back with the `binding` secret of the browser that started it (a cookie):
 * otherwise someone could send a victim to their own login's URL and have the victim's account at the
 * authorization server stored under their gateway user. In a cluster the `state` the browser carries
 * starts with the id of the replica holding the login (the SDK's own state follows it, and is what
 * the SDK checks), so a callback landing on another replica is forwarded there (see replica-hop).
 * A login waits at most
 * {@link LOGIN_TIMEOUT_MS}, and each user may have a few at once.
 */

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { LOGIN_TIMEOUT_MS, runLogin, type LoginRun, type LoginTokens } from '../login/run-login.js';
import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';

/** Logins one user may have waiting at once. */
export const MAX_PENDING_LOGINS_PER_USER = 5;

/** How a login started. */
export type LoginStart =
  | { status: 'authorize'; authorizationUrl: string; state: string }
  /** Stored tokens were enough (or refreshed): nothing for the person to do. */
  | { status: 'done'; tokens: LoginTokens | undefined };

/** How a login ended, as the callback page reports it. */
export interface LoginOutcome {
  userId: string;
  server: string;
  error?: SwitchboardError;
}

interface Pending {
  /** The SDK's own state (the one the browser carries has the owner in front). */
  innerState: string;
  userId: string;
  server: string;
  binding: string;
  deliver: (redirect: URL) => void;
  finished: Promise<LoginOutcome>;
}

/** The gateway's logins in progress. */
export class OAuthLogins {
  readonly #pending = new Map<string, Pending>();
  readonly #running = new Map<AbortController, Promise<unknown>>();
  readonly #statePrefix: string;

  /** `owner`: this replica's id, put in front of each login's state. */
  constructor(owner?: string) {
    this.#statePrefix = owner === undefined ? '' : `${owner}.`;
  }

  /**
   * Starts a login of `userId` to `run.spec`. Resolves once the authorization server's URL is known
   * (the person opens it) or the login needed no person; `onFinished` hears how it ended.
   */
  start(userId: string, binding: string, run: Omit<LoginRun, 'onAuthorizationUrl' | 'signal'>, onFinished: (outcome: LoginOutcome) => void | Promise<void>): Promise<LoginStart> {
    const server = run.spec.name;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new SwitchboardError(ErrorCode.RequestTimeout, `the login to "${server}" was not finished within ${LOGIN_TIMEOUT_MS / 60_000} minutes`)), LOGIN_TIMEOUT_MS);
    timer.unref();
    return new Promise<LoginStart>((resolveStart, rejectStart) => {
      let state: string | undefined;
      let started = false;
      const login = runLogin({
        ...run,
        signal: controller.signal,
        onAuthorizationUrl: (url, context) =>
          new Promise<URL>((deliver, refuse) => {
            // The SDK puts its own state in the URL; the map key is ours when it does not.
            const innerState = url.searchParams.get('state') ?? randomBytes(16).toString('base64url');
            const loginState = `${this.#statePrefix}${innerState}`;
            if (url.searchParams.has('state')) url.searchParams.set('state', loginState);
            state = loginState;
            const signals = [context.signal, controller.signal].filter((signal): signal is AbortSignal => signal !== undefined);
            const abort = AbortSignal.any(signals);
            abort.addEventListener('abort', () => refuse(abort.reason), { once: true });
            this.#pending.set(loginState, { innerState, userId, server, binding, deliver, finished });
            started = true;
            resolveStart({ status: 'authorize', authorizationUrl: url.href, state: loginState });
          }),
      });
      const finished: Promise<LoginOutcome> = login.then(
        (tokens) => {
          if (!started) resolveStart({ status: 'done', tokens });
          return { userId, server };
        },
        (error: unknown) => {
          const failure = isSwitchboardError(error) ? error : new SwitchboardError(ErrorCode.ServerUnauthorized, `the login to "${server}" failed: ${String(error)}`, { server, cause: error });
          if (!started) rejectStart(failure);
          return { userId, server, error: failure };
        },
      );
      const ended = finished
        .then(async (outcome) => {
          clearTimeout(timer);
          if (state !== undefined) this.#pending.delete(state);
          await onFinished(outcome);
        })
        .catch(() => {})
        .finally(() => this.#running.delete(controller));
      this.#running.set(controller, ended);
    });
  }

  /** True when `userId` may start one more login (a few may wait for their browser at once). */
  hasRoom(userId: string): boolean {
    let waiting = 0;
    for (const pending of this.#pending.values()) if (pending.userId === userId) waiting++;
    return waiting < MAX_PENDING_LOGINS_PER_USER;
  }

  /**
   * Hands a redirect to the login it belongs to and waits for that login to end. `binding` is what
   * the browser brought back ({@link bindingCookieName}); a login from another browser is refused and
   * left waiting for its own.
   */
  async complete(redirect: URL, binding: (state: string) => string | undefined): Promise<LoginOutcome> {
    const state = redirect.searchParams.get('state');
    const pending = state === null ? undefined : this.#pending.get(state);
    if (state === null || pending === undefined) {
      throw new SwitchboardError(ErrorCode.NotFound, 'this login is unknown or has expired', { hint: 'start it again from the dashboard (or with `switchboard login`)' });
    }
    const brought = Buffer.from(binding(state) ?? '');
    const expected = Buffer.from(pending.binding);
    if (brought.length !== expected.length || !timingSafeEqual(brought, expected)) {
      throw new SwitchboardError(ErrorCode.Forbidden, 'this login was started in another browser', { hint: 'finish a login in the browser that started it (from the dashboard)' });
    }
    // The SDK checks the state it made.
    const delivered = new URL(redirect);
    delivered.searchParams.set('state', pending.innerState);
    pending.deliver(delivered);
    return pending.finished;
  }

  /** Logins waiting for a browser now. */
  get size(): number {
    return this.#pending.size;
  }

  /** Ends every login in progress and waits until their connections are closed. */
  async close(): Promise<void> {
    const ending = [...this.#running];
    for (const [controller] of ending) controller.abort(new SwitchboardError(ErrorCode.Unavailable, 'the gateway is shutting down'));
    await Promise.all(ending.map(([, ended]) => ended));
  }
}

/** The cookie that binds a login to the browser that started it (one per login, named after its state). */
export function bindingCookieName(state: string): string {
  return `sb_login_${createHash('sha256').update(state).digest('base64url').slice(0, 16)}`;
}
