/**
 * @module gateway/routes/dashboard
 * `GET /` and `/assets/*`: the dashboard, offline, shipped in the package (issue 7). Until it lands,
 * `/` is a small page that says where the API is. No token is needed for the page itself: it holds no
 * data, and reads its token from the URL fragment (`/#token=…`, never sent to the server).
 */

import type { GatewayApp } from '../gateway-app-types.js';

const PAGE_HEADERS = {
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'cache-control': 'no-store',
};

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcp-switchboard</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#222}code{background:#f3f3f3;padding:0 .25rem}</style>
</head><body>
<h1>mcp-switchboard gateway</h1>
<p>The gateway is running. MCP clients connect to <code>/mcp</code> with <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<p>API: <code>/api/me</code>, <code>/api/servers</code>, <code>/api/tools</code>, <code>/api/stats</code>, <code>/api/events</code>; metrics at <code>/metrics</code>.</p>
<p>The dashboard is not part of this build yet.</p>
</body></html>
`;

/** Adds `/` and `/assets/*`. */
export function registerDashboardRoutes(app: GatewayApp): void {
  app.get('/', (c) => c.html(PLACEHOLDER, 200, PAGE_HEADERS));
  app.get('/assets/*', (c) => c.json({ error: { code: 'NOT_FOUND', message: 'no such asset' } }, 404));
}
