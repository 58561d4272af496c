#!/usr/bin/env node
/**
 * Retained memory per idle 2025-era session, in-process (`node --expose-gc bench/session-heap.mjs
 * [N] [--wake]`): a gateway from `dist/` with the echo server, N sessions (default 1,000) opened over 8
 * keep-alive sockets (`initialize`, then `notifications/initialized`), then heap and RSS after a forced
 * full GC — once right after opening and once after `SESSION_DORMANT_AFTER_MS` plus one sweep. A plain
 * `initialize` builds no SDK transport or server (the session starts dormant); `--wake` sends each
 * session one general-path request (`ping` with `_meta`), which builds them, so the first figure is an
 * awake session's and the second what is left once they let them go. The wrk case's RSS row
 * (`wrk-worker.mjs`) measures a separate `serve` process without a forced GC, so it also counts garbage
 * V8 has not collected yet.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc bench/session-heap.mjs');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const sessions = Number(process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? 1000);
const wake = process.argv.includes('--wake');
const { startGateway } = await import(`${root}dist/gateway/serve.js`);
const { ServerRegistry } = await import(`${root}dist/registry/server-registry.js`);
const { normalizeConfig } = await import(`${root}dist/config/normalize-config.js`);
const { SESSION_DORMANT_AFTER_MS } = await import(`${root}dist/gateway/legacy-session.js`);

const dir = mkdtempSync(join(tmpdir(), 'sb-session-heap-'));
const registry = await ServerRegistry.open({ db: join(dir, 'sb.db'), keyFile: join(dir, 'secret.key') });
const admin = await registry.users.add('admin', { isAdmin: true });
const { token } = await registry.tokens.create(admin);
const shared = normalizeConfig({ mcpServers: { echo: { command: process.execPath, args: [`${root}bench/echo-server.mjs`] } } }, { baseDir: root }).config;
const running = await startGateway({ registry, port: 0, sharedConfig: { servers: shared.servers, naming: shared.naming }, maxSessionsPerUser: sessions + 10 });
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
const url = new URL(`${running.url}/mcp`);
const body = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'session-heap', version: '1' } } });
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const send = (text, extraHeaders = {}) =>
  new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: '/mcp', method: 'POST', agent, headers: { ...headers, ...extraHeaders } }, (response) => {
      if (response.statusCode !== 200 && response.statusCode !== 202) reject(new Error(`${text.slice(0, 60)} answered ${response.statusCode}`));
      response.resume();
      response.on('end', () => resolve(response.headers['mcp-session-id']));
    });
    request.on('error', reject);
    request.end(text);
  });
const open = async () => {
  const session = { 'mcp-session-id': await send(body), 'mcp-protocol-version': '2025-06-18' };
  await send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), session);
  if (wake) await send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: {} } }), session);
};
const settled = () => {
  for (let round = 0; round < 4; round++) globalThis.gc();
  return process.memoryUsage();
};

await open();
const before = settled();
for (let opened = 0; opened < sessions; opened += 50) await Promise.all(Array.from({ length: Math.min(50, sessions - opened) }, open));
const opened = settled();
await new Promise((resolve) => setTimeout(resolve, SESSION_DORMANT_AFTER_MS * 1.5 + 500));
const dormant = settled();
const perSession = (after, key) => ((after[key] - before[key]) / 1024 / sessions).toFixed(1);
const built = wake ? 'woken (SDK server built)' : 'as opened';
console.log(`${running.gateway.mcp.sessionCount - 1} sessions; per session after a full GC: ${built} heap ${perSession(opened, 'heapUsed')} KiB, RSS ${perSession(opened, 'rss')} KiB; after ${SESSION_DORMANT_AFTER_MS * 1.5 + 500} ms idle heap ${perSession(dormant, 'heapUsed')} KiB, RSS ${perSession(dormant, 'rss')} KiB`);
agent.destroy();
await running.close({ deadlineMs: 2_000 });
await registry.close?.();
rmSync(dir, { recursive: true, force: true });
