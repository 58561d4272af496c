/**
 * @module gateway/mcp-hop
 * What `/mcp` does for in-flight state in a cluster (issue 20), kept apart from the endpoint:
 * - a request carrying {@link HOP_HEADER} is refused unless the hop verifies for exactly this request
 *   and this authenticated user ({@link refuseBadHop});
 * - a 2026-07-28 `tools/call` retry whose `requestState` names another replica goes to that replica
 *   ({@link forwardRetry}), or fails with CALL_INTERRUPTED when it is gone;
 * - a 2025-era session's `notifications/cancelled`, and its answers to the requests the gateway sent on a
 *   call's stream (elicitation, sampling), are also told to the other replicas ({@link relayedMessageOf}:
 *   the call may run on whichever replica got its POST), and {@link deliverInSession} hands one heard
 *   from elsewhere to the session's SDK server here, which takes it as its own.
 */

import { ErrorCode, SwitchboardError, isSwitchboardError } from '../errors.js';
import type { RegistryUser } from '../registry/index.js';
import { mcpErrorResponse, toApiError } from './http-error.js';
import type { LegacySession } from './legacy-session.js';
import { HOP_HEADER, hopRefusal, interrupted, ownerOfState, type HopRequest, type ReplicaHop } from './replica-hop.js';

/** What a `/mcp` hop signs for `request` of `user`. */
function hopRequestOf(request: Request, user: RegistryUser, parsedBody: { value: unknown } | undefined): HopRequest {
  const url = new URL(request.url);
  return { method: request.method, target: `${url.pathname}${url.search}`, userId: user.id, body: parsedBody === undefined ? '' : JSON.stringify(parsedBody.value) };
}

/** What a retry whose call ended with its replica is told. */
const RETRY = { noun: 'call', hint: 'call the tool again from the start: its upstream call ended with that replica' };

/**
 * The answer to a request carrying a hop header that is not accepted here, or undefined when there is
 * none or it is. A header that does not verify (forged, replayed, late, another user's or another
 * request's) gets 403. A genuine hop for another replica (one that is gone, whose address this one now
 * has) ends here too, with CALL_INTERRUPTED for the retry it carries: it may not go on to anything of
 * the user, since the auth middleware took a DPoP-bound token without a proof on the strength of it.
 */
export function refuseBadHop(hop: ReplicaHop | undefined, request: Request, user: RegistryUser, parsedBody: { value: unknown } | undefined): Response | undefined {
  const header = request.headers.get(HOP_HEADER);
  if (header === null) return undefined;
  const check = hop === undefined ? 'refused' : hop.verify(header, hopRequestOf(request, user, parsedBody));
  const refused = (message: string): Response => mcpErrorResponse(new SwitchboardError(ErrorCode.Forbidden, message, { hint: `clients must not send ${HOP_HEADER}` }));
  if (check === 'refused') return refused(hopRefusal(header));
  // A hop carries a stateless retry: a session id (not under the MAC) would steer it, without a DPoP proof, into a session of the user.
  if (request.headers.has('mcp-session-id')) return refused('a request forwarded between replicas carries no session id');
  if (check === 'accepted') return undefined;
  const retry = retryOf(parsedBody?.value);
  return retry === undefined ? refused(hopRefusal(header)) : interruptedAnswer(interrupted(ownerOfState(retry.state) ?? '?', RETRY, 'is no longer at its address'), retry.id);
}

/** The `requestState` of a `tools/call` retry, with its JSON-RPC id. */
function retryOf(value: unknown): { id: string | number; state: string } | undefined {
  if (!isObject(value) || value.method !== 'tools/call' || !isObject(value.params)) return undefined;
  const { id } = value;
  const state = value.params.requestState;
  return typeof state === 'string' && (typeof id === 'string' || typeof id === 'number') ? { id, state } : undefined;
}

/**
 * The owner's answer to a 2026-07-28 retry whose state another replica holds, or undefined when the
 * state is this replica's (or names no replica). A retry already forwarded once (it carries a hop) is
 * never forwarded again.
 */
export async function forwardRetry(hop: ReplicaHop | undefined, request: Request, user: RegistryUser, parsedBody: { value: unknown } | undefined): Promise<Response | undefined> {
  const retry = hop === undefined ? undefined : retryOf(parsedBody?.value);
  if (hop === undefined || retry === undefined || !hop.isForeign(retry.state)) return undefined;
  const owner = ownerOfState(retry.state) ?? '?';
  try {
    if (request.headers.get(HOP_HEADER) !== null) throw interrupted(owner, RETRY, 'is no longer at its address');
    return await hop.forward(owner, request, hopRequestOf(request, user, parsedBody), RETRY);
  } catch (error) {
    if (!isSwitchboardError(error) || error.code !== ErrorCode.CallInterrupted) throw error;
    return interruptedAnswer(error, retry.id);
  }
}

/** CALL_INTERRUPTED as the JSON-RPC error of the retried request (HTTP 200: the request was understood and answered). */
function interruptedAnswer(error: SwitchboardError, id: string | number): Response {
  const { body } = toApiError(error);
  return Response.json({ jsonrpc: '2.0', id, error: { code: -32000, message: error.message, data: { code: error.code, ...error.details, ...(body.error.hint === undefined ? {} : { hint: body.error.hint }) } } });
}

/** The request id and reason of a `notifications/cancelled`, else undefined. */
export function cancellationOf(value: unknown): { requestId: string | number; reason?: string } | undefined {
  if (!isObject(value) || value.method !== 'notifications/cancelled' || value.id !== undefined || !isObject(value.params)) return undefined;
  const { requestId, reason } = value.params;
  if (typeof requestId !== 'string' && typeof requestId !== 'number') return undefined;
  return { requestId, ...(typeof reason === 'string' ? { reason } : {}) };
}

/** A message another replica's call may be waiting for: a `notifications/cancelled`, or a JSON-RPC response (the client's answer to a request of the gateway). */
export function relayedMessageOf(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value) || value.jsonrpc !== '2.0') return undefined;
  const isResponse = value.method === undefined && (typeof value.id === 'string' || typeof value.id === 'number') && ('result' in value || 'error' in value);
  return isResponse || cancellationOf(value) !== undefined ? value : undefined;
}

/** Hands a session message heard from another replica to `session`'s SDK server here (nothing when it sleeps: then no call runs). */
export async function deliverInSession(session: LegacySession, message: Record<string, unknown>): Promise<void> {
  if (session.server === undefined) return;
  const request = new Request('http://replica.invalid/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': session.id },
    body: JSON.stringify(message),
  });
  const response = await session.handle(request, () => {}, { value: message });
  await response.body?.cancel();
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
