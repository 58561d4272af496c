/**
 * The `tools/call echo` that the gateway profilers drive with wrk (`profile-gateway.mjs`,
 * `perf-gateway.mjs`): waits for the gateway at `url` to answer `initialize`, opens a 2025-era session
 * (or, for `2026`, uses stateless 2026-07-28 requests) and returns wrk's environment for `wrk/post.lua`;
 * {@link wrkEcho} runs wrk with it.
 */

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { wrkIdBase } from './wrk-run.mjs';

const postScript = fileURLToPath(new URL('./wrk/post.lua', import.meta.url));

/** wrk (one thread) at `connections` for `seconds` against `url` with `env` from {@link echoCallEnv}; resolves post.lua's figures. */
export function wrkEcho(url, env, connections, seconds) {
  return new Promise((resolve) => {
    const run = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '-s', postScript, url], { env: { ...env, WRK_ID_BASE: wrkIdBase() }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    run.stdout.on('data', (chunk) => (out += chunk));
    run.on('exit', () => resolve(JSON.parse(out.split('\n').find((line) => line.startsWith('WRK_RESULT ')).slice(11))));
  });
}

/** wrk's environment for era `era` against `url` with bearer `token`; throws when the gateway never answers. */
export async function echoCallEnv(url, token, era, label = 'bench') {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: label, version: '1' } } };
  let answer;
  for (let tries = 0; tries < 200; tries++) {
    answer = await fetch(url, { method: 'POST', headers, body: JSON.stringify(initialize) }).catch(() => undefined);
    if (answer?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (answer?.status !== 200) throw new Error(`the gateway at ${url} did not answer initialize within 20 s`);
  const callHeaders = { authorization: headers.authorization };
  let body;
  if (era === '2025') {
    callHeaders['mcp-session-id'] = answer.headers.get('mcp-session-id');
    callHeaders['mcp-protocol-version'] = '2025-06-18';
    await fetch(url, { method: 'POST', headers: { ...headers, ...callHeaders }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' } } };
  } else {
    Object.assign(callHeaders, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
    body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'p', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } };
  }
  return { ...process.env, WRK_BODY: JSON.stringify(body), WRK_EXPECT: '"text":"hello"', WRK_HEADERS: Object.entries(callHeaders).map(([key, value]) => `${key}: ${value}`).join('\n') };
}
