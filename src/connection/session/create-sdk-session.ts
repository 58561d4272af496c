/**
 * @module connection/session/create-sdk-session
 * An SDK `Client` set up for one server: the capabilities its handlers allow, its notification
 * handlers wired to the owner, and the version negotiation the server's `protocol` asks for. The SDK
 * module is loaded here, on first need.
 */

import type { ClientCapabilities } from '@modelcontextprotocol/client';
import type { ServerSpec } from '../../config/server-spec.js';
import { clientCapabilities } from '../client-capabilities.js';
import { loadClientSdk } from '../client-sdk.js';
import type { ServerConnectionOptions } from '../server-connection-options.js';
import { guardedElicitation } from '../url-elicitation.js';
import type { SessionSink } from './mcp-session.js';
import { SdkSession } from './sdk-session.js';

/** What the SDK session needs to know. */
export interface SdkSessionPlan {
  serverName: string;
  clientInfo: { name: string; version: string };
  /** `legacy`/undefined: the 2025 `initialize`; otherwise the negotiation mode. */
  mode: ServerSpec['protocol'] | undefined;
  probeTimeoutMs: number | undefined;
  handlers: Pick<ServerConnectionOptions, 'onElicitation' | 'onSampling' | 'roots' | 'urlElicitation' | 'extensions'>;
  sink: SessionSink;
}

/** Creates the session (not yet connected). */
export async function createSdkSession(plan: SdkSessionPlan): Promise<SdkSession> {
  const { Client } = await loadClientSdk();
  const { onElicitation, onSampling, roots } = plan.handlers;
  const capabilities = clientCapabilities(plan.handlers) as ClientCapabilities;
  const urlElicitation = plan.handlers.urlElicitation === true;
  const { mode, probeTimeoutMs, sink } = plan;
  const negotiation =
    mode === undefined || mode === 'legacy'
      ? undefined
      : { mode: mode === 'auto' ? ('auto' as const) : mode, ...(probeTimeoutMs === undefined ? {} : { probe: { timeoutMs: probeTimeoutMs } }) };
  const client = new Client(plan.clientInfo, { capabilities, ...(negotiation === undefined ? {} : { versionNegotiation: negotiation }) });
  const server = plan.serverName;
  client.onerror = (error) => sink.protocolError(error);
  client.setNotificationHandler('notifications/tools/list_changed', () => sink.listChanged('tools'));
  client.setNotificationHandler('notifications/prompts/list_changed', () => sink.listChanged('prompts'));
  client.setNotificationHandler('notifications/resources/list_changed', () => sink.listChanged('resources'));
  client.setNotificationHandler('notifications/resources/updated', (notification) => sink.resourceUpdated(notification.params.uri));
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    sink.log(level, logger, data);
  });
  if (onElicitation !== undefined) {
    client.setRequestHandler('elicitation/create', async (request, context) =>
      (await onElicitation(guardedElicitation(request.params as Record<string, unknown>, server, urlElicitation), { server, signal: context.mcpReq.signal })) as never,
    );
  }
  if (onSampling !== undefined) {
    client.setRequestHandler('sampling/createMessage', async (request, context) =>
      (await onSampling(request.params as Record<string, unknown>, { server, signal: context.mcpReq.signal })) as never,
    );
  }
  if (roots !== undefined) client.setRequestHandler('roots/list', async () => ({ roots: await roots() }));
  return new SdkSession(client);
}
