/**
 * @module gateway/resume-session
 * A 2025-era session this replica does not hold, resumed from its sealed id (issue 20): the id is
 * read (refused for another user, 404 when it ended or does not open), a session place is taken, the
 * session is rebuilt on the user's client, and what the client set through other replicas (log level,
 * subscriptions) is applied once.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { RegistryUser } from '../registry/index.js';
import { mcpErrorResponse } from './http-error.js';
import { LegacySession } from './legacy-session.js';
import type { McpEndpointOptions } from './mcp-endpoint.js';
import type { UserEndpoint } from './user-endpoint.js';

/** What resuming needs of the endpoint. */
export interface ResumeDeps {
  options: Pick<McpEndpointOptions, 'sessionIds' | 'sessionSlots' | 'lease' | 'maxBodyBytes' | 'sessionStates'>;
  endpointOf(user: RegistryUser): UserEndpoint;
  hooks(user: RegistryUser, release: () => void, opened: string): Parameters<typeof LegacySession.open>[7];
}

/** Resumes session `id` of `user` here, or answers why not. */
export async function resumeSession(id: string, user: RegistryUser, deps: ResumeDeps): Promise<LegacySession | Response> {
  const options = deps.options;
  // The SDK's own answer for an unknown session: the client starts a new one.
  const notFound = (): Response => Response.json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }, { status: 404 });
  const ids = options.sessionIds;
  if (ids === undefined) return notFound();
  const reading = await ids.read(id, user);
  if (reading.kind === 'forbidden') return mcpErrorResponse(new SwitchboardError(ErrorCode.Forbidden, 'this session belongs to another user'));
  if (reading.kind === 'not-found') return notFound();
  let release: () => void;
  try {
    release = options.sessionSlots.take(user);
  } catch (error) {
    return mcpErrorResponse(error);
  }
  try {
    const lease = await options.lease(user);
    const endpoint = deps.endpointOf(user);
    endpoint.bind(lease.client);
    const { state } = reading;
    const session = await LegacySession.resume(id, endpoint, lease, { protocolVersion: state.protocolVersion, capabilities: state.clientCapabilities, clientInfo: state.clientInfo }, options.maxBodyBytes, deps.hooks(user, release, 'session resumed'));
    if (session === undefined) return notFound();
    // What the client set through other replicas (log level, subscriptions), read once here.
    const carried = await options.sessionStates?.load(id, user.id);
    if (carried !== undefined) await session.carry(carried);
    return session;
  } catch (error) {
    release();
    throw error;
  }
}
