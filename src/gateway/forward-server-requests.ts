/**
 * @module gateway/forward-server-requests
 * Upstream servers ask questions in the middle of a call (`elicitation/create`, `sampling/createMessage`).
 * The gateway declares both capabilities to its upstreams and forwards each such request to the
 * downstream client whose call the server is serving — the most recent call of that user to that
 * server — when that client declared the capability (a 2026-07-28 client gets the question as
 * `input_required`, see call-conversations). Otherwise the upstream gets a JSON-RPC error saying why
 * (no call running, a client without the capability, or a call made through the REST API).
 */

import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { UI_CLIENT_CAPABILITY, UI_EXTENSION_ID } from '../client/mcp-apps.js';
import { isUrlElicitation } from '../connection/mcp-types.js';
import type { Logger } from '../logger.js';
import type { ConnectionOptionsFor } from '../pool/index.js';
import type { RegistryUser } from '../registry/index.js';
import type { CallTracker, TrackedCall } from './call-tracker.js';

type ForwardedMethod = 'elicitation/create' | 'sampling/createMessage';

/** The connection options that route one user's upstream requests to their calls' clients. */
export function forwardingOptionsFor(tracker: CallTracker, user: RegistryUser, logger: Logger): ConnectionOptionsFor {
  const options: ReturnType<ConnectionOptionsFor> = {
    onElicitation: (params, { server, signal }) => forward(tracker, user, server, 'elicitation/create', params, signal, logger),
    // URL-mode requests arrive checked (https: or loopback http:, see url-elicitation) and go only to clients that declared the mode.
    urlElicitation: true,
    onSampling: (params, { server, signal }) => forward(tracker, user, server, 'sampling/createMessage', params, signal, logger),
    // The gateway carries MCP Apps to the clients that render them (see wire-catalog), so upstreams may offer their apps.
    extensions: { [UI_EXTENSION_ID]: UI_CLIENT_CAPABILITY },
  };
  return () => options;
}

async function forward(tracker: CallTracker, user: RegistryUser, server: string, method: ForwardedMethod, params: Record<string, unknown>, signal: AbortSignal, logger: Logger): Promise<Record<string, unknown>> {
  const url = method === 'elicitation/create' && isUrlElicitation(params);
  const what = method === 'elicitation/create' ? (url ? 'URL-mode elicitation' : 'elicitation') : 'sampling';
  const calls = tracker.callsTo(user.id, server).reverse();
  const able = (call: TrackedCall): boolean => (method === 'elicitation/create' ? (url ? call.downstream.canElicitUrl === true : call.downstream.canElicit) : call.downstream.canSample);
  const capable = calls.find((call) => able(call) && call.downstream.request !== undefined);
  if (capable?.downstream.request === undefined) {
    const reason = declineReason(calls[0], what, server);
    logger.info(`${what} request declined`, { user: user.name, server, reason });
    throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `mcp-switchboard gateway: ${what} declined: ${reason}`);
  }
  const result = await capable.downstream.request(method, params, signal);
  if (typeof result !== 'object' || result === null || Array.isArray(result)) throw new ProtocolError(ProtocolErrorCode.InternalError, `the client's ${what} answer is not an object`);
  return { ...result };
}

function declineReason(latest: TrackedCall | undefined, what: string, server: string): string {
  if (latest === undefined) return `no call to server "${server}" is running, so there is no client to ask`;
  switch (latest.downstream.era) {
    case 'modern':
      return `the client (protocol 2026-07-28) did not declare the ${what} capability in its request`;
    case 'api':
      return 'the call came through the REST API, which cannot answer questions';
    default:
      return `the MCP client connected to the gateway did not declare the ${what} capability`;
  }
}
