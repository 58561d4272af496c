/**
 * @module gateway/routes/api-tool-search
 * `GET /api/tool-search` (the signed-in user's tool-search setting for `/mcp`, and what it means for
 * their catalog now: whether search is in force, how many tools, their estimated definition tokens)
 * and `PUT /api/tool-search` (`{ "mode": "off" | "on" | "auto", "maxTools"?, "maxTokens"?, "pinned"? }`
 * sets it; `"off"` removes it, or is kept when the gateway's default is on). `GET` shows the user's own
setting, else the gateway's default. Each user sets their own; a bad value is a 400 naming the field.
 */

import { estimateDefinitionTokens, resolveToolSearch, toolSearchActive, type ToolSearchSettings } from '../../client/search/tool-search-mode.js';
import type { Gateway } from '../gateway.js';
import { jsonObjectBody, userOf, type GatewayApp } from '../gateway-app-types.js';

/** Adds the `/api/tool-search` routes (behind the auth middleware). */
export function registerToolSearchRoutes(app: GatewayApp, gateway: Gateway): void {
  const describe = async (userId: string): Promise<Record<string, unknown>> => {
    const user = await gateway.registry.users.get({ id: userId });
    // What /mcp applies: the user's own (as stored now), else the gateway's default (serve --tool-search).
    const gate = gateway.access.gateFor(user);
    const toolSearch: ToolSearchSettings = user.toolSearch ?? { mode: gate.toolSearch.fallback ?? 'off' };
    const lease = await gateway.lease(user);
    try {
      // What /mcp lists to this user (their tool rules applied), as its tool search sees it.
      const tools = gate.list(lease.client);
      const resolved = resolveToolSearch(toolSearch);
      return { toolSearch, active: toolSearchActive(resolved, tools), tools: tools.length, estimatedTokens: estimateDefinitionTokens(tools), thresholds: { maxTools: resolved.maxTools, maxTokens: resolved.maxTokens } };
    } finally {
      lease.release();
    }
  };

  app.get('/api/tool-search', async (c) => c.json(await describe(userOf(c).id)));

  app.put('/api/tool-search', async (c) => {
    const user = userOf(c);
    const body = (await jsonObjectBody(c)) as ToolSearchSettings;
    // Plain "off" removes the setting, unless the gateway's default would then switch search back on.
    const fallback = gateway.access.gateFor(user).toolSearch.fallback;
    const plainOff = body.mode === 'off' && Object.keys(body).length === 1 && (fallback === undefined || fallback === 'off');
    await gateway.registry.users.setToolSearch({ id: user.id }, plainOff ? undefined : body);
    return c.json(await describe(user.id));
  });
}
