/**
 * @module gateway/routes/api-templates
 * `GET /api/templates`: the server templates an administrator defined, which every user may
 * instantiate (a tenant's only way to run a local command), as {@link templateView} shows them.
 */

import type { TemplatesResponse } from '../../contract/api-contract.js';
import type { Gateway } from '../gateway.js';
import { userOf, type GatewayApp } from '../gateway-app-types.js';
import { templateView } from '../template-view.js';

/** Adds `/api/templates` (behind the auth middleware). */
export function registerTemplateRoutes(app: GatewayApp, gateway: Gateway): void {
  app.get('/api/templates', async (c) => {
    const user = userOf(c);
    const templates = await gateway.registry.forUser(user).listTemplates();
    return c.json({ templates: templates.map((template) => templateView(template, user.isAdmin)) } satisfies TemplatesResponse);
  });
}
