import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import type { GatewayEnv } from '../gateway-app-types.js';
import { DASHBOARD_CSP, registerDashboardRoutes } from './dashboard.js';

const dir = mkdtempSync(join(tmpdir(), 'switchboard-dashboard-route-'));
mkdirSync(join(dir, 'assets'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>dash</title><script type="module" src="./assets/app-1a2b.js"></script>');
writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log(1)');
writeFileSync(join(dir, 'secret.txt'), 'not an asset');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function appOf(root: string): Hono<GatewayEnv> {
  const app = new Hono<GatewayEnv>();
  registerDashboardRoutes(app, { dir: root });
  return app;
}

describe('dashboard routes', () => {
  const app = appOf(dir);

  it('serves the page with a strict Content-Security-Policy and no caching', async () => {
    const response = await app.request('/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('./assets/app-1a2b.js');
  });

  it('serves hashed assets with their type, cached for good', async () => {
    const response = await app.request('/assets/app-1a2b.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(await response.text()).toBe('console.log(1)');
  });

  it('answers 404 for anything else, never a file outside assets/', async () => {
    for (const path of ['/assets/missing.js', '/assets/..%2Fsecret.txt', '/assets/%2e%2e%2Fsecret.txt', '/assets/app-1a2b.exe', '/assets/sub/app.js']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('not an asset');
    }
  });

  it('says how to build the dashboard when it is missing', async () => {
    const response = await appOf(join(dir, 'nowhere')).request('/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('npm run build');
  });
});
