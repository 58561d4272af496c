/**
 * @module gateway/oauth-callback-hop
 * `/oauth/callback` in a cluster (issue 20): the login a redirect belongs to waits on the replica that
 * started it, named at the front of its `state`. A redirect landing elsewhere is forwarded to that
 * replica as it came (query and cookies; the owner checks the browser's binding cookie as always) and
 * its page handed back; when that replica is gone the browser is told the login was interrupted and
 * to start it again. A hop header that does not verify is refused.
 */

import { ErrorCode, isSwitchboardError, type SwitchboardError } from '../errors.js';
import { HOP_HEADER, hopRefusal, interrupted, ownerOfState, type HopRequest, type ReplicaHop } from './replica-hop.js';

/** What the callback route does with a redirect: serve it here, hand back the owner's answer, or refuse it. */
export type CallbackRoute = { kind: 'here' } | { kind: 'answer'; response: Response } | { kind: 'refused'; status: 403 | 503; message: string };

const LOGIN = { noun: 'login', hint: 'start the login again from the dashboard' };

/** Routes a `/oauth/callback` redirect to the replica holding its login. */
export async function routeCallbackToOwner(request: Request, hop: ReplicaHop): Promise<CallbackRoute> {
  const url = new URL(request.url);
  const signed: HopRequest = { method: 'GET', target: `${url.pathname}${url.search}`, userId: '', body: '' };
  const header = request.headers.get(HOP_HEADER);
  const check = header === null ? undefined : hop.verify(header, signed);
  if (header !== null && check === 'refused') return { kind: 'refused', status: 403, message: hopRefusal(header, 'redirect') };
  const state = url.searchParams.get('state');
  const owner = (state === null ? undefined : ownerOfState(state)) ?? '?';
  // A genuine hop for another replica (gone, its address now this one's) ends here: its login was that replica's.
  if (check === 'elsewhere') return interruptedPage(interrupted(owner, LOGIN, 'is no longer at its address'));
  if (state === null || !hop.isForeign(state)) return { kind: 'here' };
  try {
    if (header !== null) throw interrupted(owner, LOGIN, 'is no longer at its address');
    return { kind: 'answer', response: await hop.forward(owner, request, signed, LOGIN) };
  } catch (error) {
    if (!isSwitchboardError(error) || error.code !== ErrorCode.CallInterrupted) throw error;
    return interruptedPage(error);
  }
}

/** The 503 page of a login that ended with its replica. */
function interruptedPage(error: SwitchboardError): CallbackRoute {
  return { kind: 'refused', status: 503, message: `${error.message} — ${error.hint ?? LOGIN.hint}` };
}
