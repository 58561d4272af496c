/**
 * @module gateway/routes/dashboard
 * `GET /` and `/assets/*`: the dashboard (issue 7), offline, shipped in the package under
 * `dist/dashboard/` (`npm run build` makes it). No token is needed for the files: they hold no data,
 * and the page reads its token from the URL fragment (`/#token=…`, never sent to the server). When the
 * build is missing, `/` is a small page that says so and where the API is.
 */

import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { GatewayApp } from '../gateway-app-types.js';
import { apiErrorResponse } from '../http-error.js';

/** Where the built dashboard lives: `dist/dashboard/` of the package (from `src/` or `dist/` alike). */
export const DASHBOARD_DIR = fileURLToPath(new URL('../../../dist/dashboard/', import.meta.url));

/**
 * Only the page's own files; media in tool results are `data:` URLs, icons `https:` or `data:`, and
 * the API is same-origin. An MCP App's HTML is framed from the gateway's one-time URLs, under a
 * sandboxing policy of its own (gateway/app-frames).
 * Styles set through the CSSOM (element.style) are not inline markup and need no 'unsafe-inline'.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // Icons of servers and tools are https: images (safeIcons keeps no other remote kind); the page sends no referrer.
  "img-src 'self' data: https:",
  "media-src 'self' data:",
  "connect-src 'self'",
  // An MCP App's document, from the gateway's one-time frame URLs (its own policy sandboxes it).
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGE_HEADERS = { 'content-security-policy': DASHBOARD_CSP, 'cache-control': 'no-store' };
// Asset names carry a content hash: a name never changes content.
const ASSET_HEADERS = { 'cache-control': 'public, max-age=31536000, immutable' };
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,200}$/;
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

const MISSING = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcp-switchboard</title></head><body>
<h1>mcp-switchboard gateway</h1>
<p>The gateway is running. MCP clients connect to <code>/mcp</code> with <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<p>API: <code>/api/me</code>, <code>/api/servers</code>, <code>/api/tools</code>, <code>/api/stats</code>, <code>/api/events</code>; metrics at <code>/metrics</code>.</p>
<p>The dashboard is not built: run <code>npm run build</code> in the package.</p>
</body></html>
`;

/** Options of {@link registerDashboardRoutes}. */
export interface DashboardRouteOptions {
  /** The built dashboard. @default DASHBOARD_DIR */
  dir?: string;
}

/** Adds `/` and `/assets/*`. Files are read once and kept (they are immutable in a package). */
export function registerDashboardRoutes(app: GatewayApp, options: DashboardRouteOptions = {}): void {
  const dir = options.dir ?? DASHBOARD_DIR;
  const cache = new Map<string, Promise<Buffer | undefined>>();
  const read = (path: string): Promise<Buffer | undefined> => {
    let file = cache.get(path);
    if (file === undefined) {
      file = readFile(path).catch(() => undefined);
      // A missing file is not remembered: a build made while the gateway runs is picked up.
      void file.then((content) => content === undefined && cache.delete(path));
      cache.set(path, file);
    }
    return file;
  };

  app.get('/', async (c) => {
    const page = await read(join(dir, 'index.html'));
    return c.html(page === undefined ? MISSING : page.toString('utf8'), 200, PAGE_HEADERS);
  });
  app.get('/assets/:file', async (c) => {
    const name = c.req.param('file');
    const type = CONTENT_TYPES[extname(name)];
    const content = ASSET_NAME.test(name) && type !== undefined ? await read(join(dir, 'assets', name)) : undefined;
    if (content === undefined) return apiErrorResponse(new SwitchboardError(ErrorCode.NotFound, `no asset ${name}`));
    return c.body(new Uint8Array(content), 200, { ...ASSET_HEADERS, 'content-type': type ?? 'application/octet-stream' });
  });
}
