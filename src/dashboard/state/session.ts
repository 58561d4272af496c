/**
 * @module dashboard/state/session
 * What every page needs: the API client of the signed-in user, the user, and the event stream.
 */

import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from '../api/api-client.js';
import type { ApiUser } from '../../contract/api-contract.js';
import type { EventHub } from './event-hub.js';

/** The signed-in session. */
export interface Session {
  api: ApiClient;
  user: ApiUser;
  events: EventHub;
}

export const SessionContext = createContext<Session | undefined>(undefined);

/** The session of the page (only used below the sign-in gate). */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (session === undefined) throw new Error('useSession outside of a signed-in page');
  return session;
}
