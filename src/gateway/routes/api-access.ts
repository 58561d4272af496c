/**
 * @module gateway/routes/api-access
 * Access control over HTTP (issue 21):
 * - `GET /api/endpoints` (the endpoints the caller may use, with URL and connection snippets),
 *   `GET /api/endpoints/:name` (plus the tools it lists for the caller), `PUT /api/endpoints/:name`
 *   (an admin's endpoint; a user's own endpoint over their own tools), `DELETE /api/endpoints/:name`;
 * - admins only: `/api/groups` (+ `/:name/members/:user`), `/api/rules`, `/api/limits`,
 *   `/api/settings/everything` (`{ on }`), `/api/approvals` (+ `POST /:id` with `{ approve }`).
 * Every change is in force (and connected clients told) when the answer comes.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { EndpointRecord, RegistryUser } from '../../registry/index.js';
import { connectionSnippets } from '../access/connection-snippets.js';
import type { Gateway } from '../gateway.js';
import { jsonObjectBody, userOf, type GatewayApp, type GatewayContext } from '../gateway-app-types.js';

function requireAdmin(user: RegistryUser): void {
  if (!user.isAdmin) throw new SwitchboardError(ErrorCode.Forbidden, 'only an administrator may do this', { hint: 'ask an administrator' });
}

/** The public origin of the request (for endpoint URLs). */
function originOf(c: GatewayContext): string {
  const url = new URL(c.req.url);
  const host = c.req.header('host');
  return `${url.protocol}//${host ?? url.host}`;
}

/** An endpoint as `viewer` may read it: who else may use it only for administrators and its owner. */
function endpointView(c: GatewayContext, endpoint: EndpointRecord, viewer: RegistryUser): Record<string, unknown> {
  const url = `${originOf(c)}/mcp/e/${endpoint.name}`;
  const { access: _whoElse, ...rest } = endpoint;
  const shown = viewer.isAdmin || endpoint.ownerId === viewer.id ? endpoint : rest;
  return { ...shown, url, snippets: connectionSnippets(url, `switchboard-${endpoint.name}`) };
}

/** Adds the access routes (behind the auth middleware). */
export function registerAccessRoutes(app: GatewayApp, gateway: Gateway): void {
  const access = gateway.access;
  const registry = gateway.registry;
  const applied = (): Promise<void> => access.state.reload();

  app.get('/api/endpoints', (c) => {
    const user = userOf(c);
    return c.json({ everything: access.everythingAllowed(user), endpoints: access.endpointsOf(user).map((endpoint) => endpointView(c, endpoint, user)) });
  });

  app.get('/api/endpoints/:name', async (c) => {
    const user = userOf(c);
    const endpoint = access.endpointFor(user, c.req.param('name'));
    const lease = await gateway.lease(user);
    try {
      const tools = access.gateFor(user, endpoint.name).list(lease.client).map((tool) => ({ name: tool.name, server: tool.server, originalName: tool.originalName, ...(tool.description === undefined ? {} : { description: tool.description }), ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }) }));
      return c.json({ endpoint: endpointView(c, endpoint, user), tools });
    } finally {
      lease.release();
    }
  });

  app.put('/api/endpoints/:name', async (c) => {
    const user = userOf(c);
    const name = c.req.param('name');
    const existing = access.state.current.endpoints.get(name);
    // An admin's endpoints stay the admins'; a user's endpoint is theirs (admins may edit it).
    const owner = existing === undefined ? (user.isAdmin ? undefined : user) : existing.ownerId === undefined ? undefined : { id: existing.ownerId };
    if (existing !== undefined && !user.isAdmin && existing.ownerId !== user.id) throw new SwitchboardError(ErrorCode.NotFound, `there is no endpoint "${name}" of yours`);
    const body = await jsonObjectBody(c);
    // A user's endpoint is theirs alone (see tool-gate mayUseEndpoint): naming others would give them a way in.
    if (!user.isAdmin && body.access !== undefined && body.access !== null) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, `only an administrator can open an endpoint to other users or groups: leave out "access" (endpoint "${name}")`, { hint: 'ask an administrator to make the endpoint and name who may use it' });
    }
    const saved = await registry.access.putEndpoint(name, body, owner);
    await applied();
    return c.json({ endpoint: endpointView(c, saved, user) }, existing === undefined ? 201 : 200);
  });

  app.delete('/api/endpoints/:name', async (c) => {
    const user = userOf(c);
    const name = c.req.param('name');
    const existing = access.state.current.endpoints.get(name);
    if (existing === undefined || (!user.isAdmin && existing.ownerId !== user.id)) throw new SwitchboardError(ErrorCode.NotFound, `there is no endpoint "${name}" of yours`);
    await registry.access.removeEndpoint(name);
    await applied();
    return c.body(null, 204);
  });

  app.get('/api/groups', async (c) => {
    requireAdmin(userOf(c));
    return c.json({ groups: await registry.groups.list() });
  });
  app.post('/api/groups', async (c) => {
    requireAdmin(userOf(c));
    const body = await jsonObjectBody(c);
    if (typeof body.name !== 'string') throw new SwitchboardError(ErrorCode.InvalidArgument, '`name` (a string) is required');
    const group = await registry.groups.add(body.name, typeof body.description === 'string' ? { description: body.description } : {});
    for (const member of Array.isArray(body.members) ? body.members : []) if (typeof member === 'string') await registry.groups.addMember(group.name, member);
    await applied();
    return c.json({ group: await registry.groups.get(group.name) }, 201);
  });
  app.delete('/api/groups/:name', async (c) => {
    requireAdmin(userOf(c));
    await registry.groups.remove(c.req.param('name'));
    await applied();
    return c.body(null, 204);
  });
  app.put('/api/groups/:name/members/:user', async (c) => {
    requireAdmin(userOf(c));
    const group = await registry.groups.addMember(c.req.param('name'), c.req.param('user'));
    await applied();
    return c.json({ group });
  });
  app.delete('/api/groups/:name/members/:user', async (c) => {
    requireAdmin(userOf(c));
    const group = await registry.groups.removeMember(c.req.param('name'), c.req.param('user'));
    await applied();
    return c.json({ group });
  });

  app.get('/api/rules', async (c) => {
    requireAdmin(userOf(c));
    return c.json({ rules: await registry.access.listRules() });
  });
  app.post('/api/rules', async (c) => {
    requireAdmin(userOf(c));
    const rule = await registry.access.addRule(await jsonObjectBody(c));
    await applied();
    return c.json({ rule }, 201);
  });
  app.delete('/api/rules/:id', async (c) => {
    requireAdmin(userOf(c));
    await registry.access.removeRule(c.req.param('id'));
    await applied();
    return c.body(null, 204);
  });

  app.get('/api/limits', async (c) => {
    requireAdmin(userOf(c));
    return c.json({ limits: await registry.access.listLimits() });
  });
  app.post('/api/limits', async (c) => {
    requireAdmin(userOf(c));
    const limit = await registry.access.addLimit(await jsonObjectBody(c));
    await applied();
    return c.json({ limit }, 201);
  });
  app.delete('/api/limits/:id', async (c) => {
    requireAdmin(userOf(c));
    await registry.access.removeLimit(c.req.param('id'));
    await applied();
    return c.body(null, 204);
  });

  app.get('/api/settings/everything', (c) => {
    requireAdmin(userOf(c));
    return c.json({ on: access.state.current.everythingEndpoint });
  });
  app.put('/api/settings/everything', async (c) => {
    requireAdmin(userOf(c));
    const body = await jsonObjectBody(c);
    if (typeof body.on !== 'boolean') throw new SwitchboardError(ErrorCode.InvalidArgument, '`on` (true or false) is required');
    await registry.access.setEverythingEndpoint(body.on);
    await applied();
    return c.json({ on: body.on });
  });

  app.get('/api/approvals', (c) => {
    requireAdmin(userOf(c));
    return c.json({ approvals: access.approvals.list() });
  });
  app.post('/api/approvals/:id', async (c) => {
    const user = userOf(c);
    requireAdmin(user);
    const body = await jsonObjectBody(c);
    if (typeof body.approve !== 'boolean') throw new SwitchboardError(ErrorCode.InvalidArgument, '`approve` (true or false) is required');
    if (!access.approvals.decide(c.req.param('id'), body.approve, user.name)) {
      throw new SwitchboardError(ErrorCode.NotFound, 'this call is no longer waiting for approval', { hint: 'it was decided, timed out, or its caller gave up' });
    }
    return c.json({ decided: body.approve ? 'approved' : 'denied' });
  });
}
