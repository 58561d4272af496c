/**
 * @module gateway/routes/api-servers
 * The user's servers: `GET /api/servers`, `POST /api/servers`, `PATCH /api/servers/:name`,
 * `DELETE /api/servers/:name`. Changes go through the registry as the user (a tenant's entries pass
 * the tenant policy; shared servers are read-only to tenants; the config file's servers are
 * read-only to everyone). An edit answers once the user's servers have reconnected with it (bounded
 * by {@link DEFAULT_REFRESH_WAIT_MS}), so the view shows the outcome, and connected MCP clients have
 * been told their tools changed.
 */

import type { ServerResponse, ServersResponse } from '../../contract/api-contract.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { RegistryUser } from '../../registry/index.js';
import type { Gateway } from '../gateway.js';
import { DEFAULT_REFRESH_WAIT_MS } from '../gateway-defaults.js';
import { jsonObjectBody, userOf, type GatewayApp } from '../gateway-app-types.js';
import { buildServerViews, type ServerView } from '../server-view.js';
import { isRecord } from '../wire-format.js';

/** Adds the `/api/servers` routes (behind the auth middleware). */
export function registerServerRoutes(app: GatewayApp, gateway: Gateway): void {
  app.get('/api/servers', async (c) => c.json({ servers: await serverViews(gateway, userOf(c)) } satisfies ServersResponse));

  app.post('/api/servers', async (c) => {
    const user = userOf(c);
    const body = await jsonObjectBody(c);
    const { name, entry, enabled } = body;
    if (typeof name !== 'string' || name === '') throw invalid('`name` must be a non-empty string');
    if (!isRecord(entry)) throw invalid('`entry` must be an object, as in a config file (e.g. { "url": "https://…" })');
    if (enabled !== undefined && typeof enabled !== 'boolean') throw invalid('`enabled` must be true or false');
    if (gateway.sharedServers.some((spec) => spec.name === name)) {
      throw new SwitchboardError(ErrorCode.AlreadyExists, `"${name}" is the name of a shared server (from the gateway's config file)`, { hint: 'pick another name' });
    }
    await gateway.registry.forUser(user).addServer(name, entry, enabled === undefined ? {} : { enabled });
    return c.json({ server: await serverView(gateway, user, name) } satisfies ServerResponse, 201);
  });

  app.patch('/api/servers/:name', async (c) => {
    const user = userOf(c);
    const name = c.req.param('name');
    const body = await jsonObjectBody(c);
    const { entry, enabled } = body;
    if (entry !== undefined && !isRecord(entry)) throw invalid('`entry` must be an object, as in a config file');
    if (enabled !== undefined && typeof enabled !== 'boolean') throw invalid('`enabled` must be true or false');
    if (entry === undefined && enabled === undefined) throw invalid('nothing to change: send `entry`, `enabled`, or both');
    const target = await targetOf(gateway, user, name);
    if (entry !== undefined) await target.update(entry);
    if (enabled !== undefined) await target.setEnabled(enabled);
    return c.json({ server: await serverView(gateway, user, name) } satisfies ServerResponse);
  });

  app.delete('/api/servers/:name', async (c) => {
    const user = userOf(c);
    const target = await targetOf(gateway, user, c.req.param('name'));
    await target.remove();
    await waitForRefresh(gateway, user);
    return c.body(null, 204);
  });
}

/** Every server of `user`, with live state. */
async function serverViews(gateway: Gateway, user: RegistryUser): Promise<ServerView[]> {
  const registered = await gateway.registry.forUser(user).listServers();
  const lease = await gateway.lease(user);
  try {
    return buildServerViews({ user, registered, configServers: gateway.sharedServers, status: lease.client.status(), stats: lease.client.stats() });
  } finally {
    lease.release();
  }
}

/** One server's view after an edit: waits (bounded) for the user's client to apply it. */
async function serverView(gateway: Gateway, user: RegistryUser, name: string): Promise<ServerView> {
  await waitForRefresh(gateway, user);
  const view = (await serverViews(gateway, user)).find((item) => item.name === name);
  if (view === undefined) throw new SwitchboardError(ErrorCode.ServerNotFound, `you have no server named "${name}"`, { server: name });
  return view;
}

async function waitForRefresh(gateway: Gateway, user: RegistryUser): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([gateway.pool.refresh(user.id), new Promise<void>((resolve) => (timer = setTimeout(resolve, DEFAULT_REFRESH_WAIT_MS)))]);
  clearTimeout(timer);
}

interface EditTarget {
  update(entry: Record<string, unknown>): Promise<unknown>;
  setEnabled(enabled: boolean): Promise<unknown>;
  remove(): Promise<void>;
}

/** How `user` may change server `name`: their own through their view; a shared one only as an administrator. */
async function targetOf(gateway: Gateway, user: RegistryUser, name: string): Promise<EditTarget> {
  const tenant = gateway.registry.forUser(user);
  const registered = await tenant.listServers();
  const own = registered.find((server) => server.name === name && !server.shared);
  const shared = registered.find((server) => server.name === name && server.shared);
  if (own !== undefined || (shared !== undefined && !user.isAdmin)) {
    // A tenant's change to a shared server is refused by the view (POLICY_VIOLATION, rule shared-read-only).
    return { update: (entry) => tenant.updateServer(name, entry), setEnabled: (enabled) => tenant.setServerEnabled(name, enabled), remove: () => tenant.removeServer(name) };
  }
  if (shared !== undefined) {
    const servers = gateway.registry.servers;
    return { update: (entry) => servers.update(null, name, entry), setEnabled: (enabled) => servers.setEnabled(null, name, enabled), remove: () => servers.remove(null, name) };
  }
  if (gateway.sharedServers.some((spec) => spec.name === name)) {
    throw new SwitchboardError(ErrorCode.Forbidden, `server "${name}" is defined in the gateway's config file`, { hint: 'change it in the config file and restart the gateway' });
  }
  throw new SwitchboardError(ErrorCode.ServerNotFound, `you have no server named "${name}"`, { server: name });
}

function invalid(message: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.InvalidArgument, message);
}
