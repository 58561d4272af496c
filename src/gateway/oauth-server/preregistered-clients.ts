/**
 * @module gateway/oauth-server/preregistered-clients
 * Clients the gateway's authorization server knows without registration (issue 18):
 * - `switchboard-cli`: the project's own CLI (`switchboard login` against this gateway) — a public,
 *   native client whose only redirect is `http://127.0.0.1/callback` on any port (RFC 8252 §7.3:
 *   oidc-provider lets a native client's loopback redirect vary in its port, nothing else);
 * - `switchboard-dashboard`: the dashboard, redirecting only to this gateway's own origin;
 * - the administrator's own (`switchboard oauth-clients add`), kept in the registry without expiry.
 * The CLI's client id is announced in the authorization-server metadata
 * (`switchboard_cli_client_id`), so the CLI uses it instead of registering.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { OAuthPayload, OAuthServerStore } from '../../registry/index.js';
import { checkRedirectUris } from './redirect-policy.js';

/** The CLI's fixed client id. */
export const CLI_CLIENT_ID = 'switchboard-cli';
/** The dashboard's fixed client id. */
export const DASHBOARD_CLIENT_ID = 'switchboard-dashboard';
/** The metadata field that names the CLI's client id. */
export const CLI_CLIENT_METADATA = 'switchboard_cli_client_id';
/** Marks an administrator's client in its stored metadata. */
const MARK = 'switchboard_preregistered';

/** A pre-registered client as listed. */
export interface PreregisteredClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  /** Built in (the CLI, the dashboard) or added by an administrator. */
  builtIn: boolean;
}

const COMMON = { token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] } as const;

/** The built-in clients of the gateway at `issuer`, as oidc-provider's static `clients`. */
export function builtInClients(issuer: string): OAuthPayload[] {
  return [
    { ...COMMON, client_id: CLI_CLIENT_ID, client_name: 'Switchboard CLI', application_type: 'native', redirect_uris: ['http://127.0.0.1/callback'] },
    { ...COMMON, client_id: DASHBOARD_CLIENT_ID, client_name: 'Switchboard dashboard', application_type: 'web', redirect_uris: [`${issuer}/`] },
  ];
}

/** The built-in and the administrator's clients. */
export async function listPreregisteredClients(store: OAuthServerStore, issuer: string): Promise<PreregisteredClient[]> {
  const own = (await store.unexpiringClients()).filter((payload) => payload[MARK] === true);
  return [...builtInClients(issuer).map((payload) => listed(payload, true)), ...own.map((payload) => listed(payload, false))];
}

/** Adds (or replaces) an administrator's client: a public client with exactly these redirect URIs. */
export async function addPreregisteredClient(store: OAuthServerStore, client: { clientId: string; clientName?: string; redirectUris: string[]; native?: boolean }): Promise<void> {
  if (!/^[A-Za-z0-9._:-]{3,100}$/.test(client.clientId) || client.clientId.startsWith('https:')) {
    throw new SwitchboardError(ErrorCode.InvalidArgument, `client id "${client.clientId}" must be 3-100 letters, digits or . _ : - (and not a URL)`);
  }
  if (client.clientId === CLI_CLIENT_ID || client.clientId === DASHBOARD_CLIENT_ID) throw new SwitchboardError(ErrorCode.AlreadyExists, `"${client.clientId}" is a built-in client`);
  if (client.redirectUris.length === 0) throw new SwitchboardError(ErrorCode.InvalidArgument, `client "${client.clientId}" needs at least one redirect URI`, { hint: 'add --redirect-uri https://app.example/callback' });
  const problem = checkRedirectUris(client.redirectUris, {});
  if (problem !== undefined) throw new SwitchboardError(ErrorCode.InvalidArgument, `client "${client.clientId}": ${problem}`);
  const loopbackOnly = client.redirectUris.every((uri) => new URL(uri).protocol === 'http:');
  await store.upsert('Client', client.clientId, {
    ...COMMON,
    client_id: client.clientId,
    client_name: client.clientName ?? client.clientId,
    application_type: client.native === true || loopbackOnly ? 'native' : 'web',
    redirect_uris: client.redirectUris,
    [MARK]: true,
  }, undefined);
}

/** Removes an administrator's client; its grants stay until they expire but it can get no new token. */
export async function removePreregisteredClient(store: OAuthServerStore, clientId: string): Promise<void> {
  if (clientId === CLI_CLIENT_ID || clientId === DASHBOARD_CLIENT_ID) throw new SwitchboardError(ErrorCode.InvalidArgument, `"${clientId}" is a built-in client and cannot be removed`);
  const found = await store.find('Client', clientId);
  if (found?.[MARK] !== true) throw new SwitchboardError(ErrorCode.NotFound, `there is no pre-registered client "${clientId}"`, { hint: 'see: switchboard oauth-clients list' });
  await store.destroy('Client', clientId);
}

function listed(payload: OAuthPayload, builtIn: boolean): PreregisteredClient {
  const redirects = payload.redirect_uris;
  return { clientId: String(payload.client_id), clientName: String(payload.client_name ?? payload.client_id), redirectUris: Array.isArray(redirects) ? redirects.map(String) : [], builtIn };
}
