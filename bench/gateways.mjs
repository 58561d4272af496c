/**
 * The gateway case: per-call latency and calls/s through an HTTP gateway that fronts the stdio echo
 * server, against calling that server directly. Every row uses the same HTTP client (SDK v1 `Client`
 * + `StreamableHTTPClientTransport`), so differences belong to the gateway; `direct` is the same SDK v1
 * client over stdio.
 *
 * A gateway is `{ label, packages, available(): string | undefined (why not), start({ command, args,
 * port, env, extraArgs? }): { url, process, headers?, cleanup? } }` (`extraArgs`: more CLI options, switchboard only). The process is spawned in its own group and
 * killed as a group; `headers` go on every request (a token); `cleanup()` runs after the kill.
 */

import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function spawnGroup(args, env) {
  return spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
}

const gateways = {
  direct: {
    label: 'direct (stdio, no gateway)',
    packages: '@modelcontextprotocol/sdk 1.32.2 client over stdio',
    available: () => undefined,
  },
  switchboard: {
    label: 'switchboard serve (/mcp)',
    packages: 'mcp-switchboard (dist/gateway)',
    available: () => (existsSync(`${root}dist/gateway/index.js`) ? undefined : 'dist/gateway is absent (the gateway, issue 6, is not built on this branch)'),
    /**
     * `switchboard serve` with a fresh SQLite registry, the echo server as the one server of its config,
     * and a token set through SWITCHBOARD_TOKEN (every request is authenticated, as in production).
     * `--quiet` drops the per-request log line, as the other gateways run without logs.
     */
    start({ command, args, port, env, extraArgs = [] }) {
      const dir = mkdtempSync(join(tmpdir(), 'sb-bench-gateway-'));
      const config = join(dir, 'switchboard.json');
      writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command, args, env } } }));
      const token = randomBytes(32).toString('hex');
      const child = spawnGroup(
        [`${root}bin/switchboard.js`, 'serve', '--config', config, '--db', join(dir, 'switchboard.db'), '--port', String(port), '--quiet', ...extraArgs],
        { ...env, SWITCHBOARD_TOKEN: token },
      );
      return {
        url: `http://127.0.0.1:${port}/mcp`,
        process: child,
        headers: { authorization: `Bearer ${token}` },
        cleanup: () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  'switchboard-oauth': {
    label: 'switchboard serve (/mcp), OAuth access token',
    packages: 'mcp-switchboard (dist/gateway), its own OAuth server (oidc-provider 9.13.3)',
    available: () => gateways.switchboard.available(),
    /**
     * As `switchboard`, but every call carries an OAuth access token of the gateway's own authorization
     * server (registered, authorized and exchanged over HTTP with the static token as the person's
     * sign-in), not the static token: verifying it must be as cheap (the token cache), never a query
     * or a signature check per call.
     */
    start(options) {
      const started = gateways.switchboard.start(options);
      const base = `http://127.0.0.1:${options.port}`;
      return { ...started, ready: accessTokenOf(base, started.headers.authorization.slice('Bearer '.length)).then((token) => ({ authorization: `Bearer ${token}` })) };
    },
  },
  supergateway: {
    label: 'supergateway --stateful',
    packages: 'supergateway 4.0.0',
    available: () => (existsSync(`${root}node_modules/supergateway/dist/index.js`) ? undefined : 'supergateway is not installed'),
    start({ command, args, port, env }) {
      const stdio = [command, ...args].map((part) => JSON.stringify(part)).join(' ');
      const child = spawnGroup(
        [`${root}node_modules/supergateway/dist/index.js`, '--stdio', stdio, '--outputTransport', 'streamableHttp', '--stateful', '--port', String(port), '--logLevel', 'none'],
        env,
      );
      return { url: `http://127.0.0.1:${port}/mcp`, process: child };
    },
  },
  'mcp-proxy': {
    label: 'mcp-proxy (stream)',
    packages: 'mcp-proxy 6.7.19',
    available: () => (existsSync(`${root}node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs`) ? undefined : 'mcp-proxy is not installed'),
    start({ command, args, port, env }) {
      const child = spawnGroup(
        [`${root}node_modules/mcp-proxy/dist/bin/mcp-proxy.mjs`, '--port', String(port), '--host', '127.0.0.1', '--server', 'stream', '--', command, ...args],
        env,
      );
      return { url: `http://127.0.0.1:${port}/mcp`, process: child };
    },
  },
};

export const GATEWAY_NAMES = Object.keys(gateways);

/** An access token of the gateway at `base` for its /mcp: DCR, sign-in with `staticToken`, Allow, PKCE code exchange. */
async function accessTokenOf(base, staticToken) {
  for (const deadline = Date.now() + 30_000; ; ) {
    const ok = await fetch(`${base}/healthz`).then((response) => response.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error('the gateway did not start within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const redirect = 'http://127.0.0.1:9/callback';
  const registered = await (await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: 'none' }) })).json();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({ response_type: 'code', client_id: registered.client_id, redirect_uri: redirect, scope: 'mcp', code_challenge: challenge, code_challenge_method: 'S256', resource: `${base}/mcp` });
  const cookies = new Map();
  let next = { url: `${base}/oauth/authorize?${query}`, method: 'GET' };
  for (let step = 0; step < 20; step++) {
    const response = await fetch(next.url, { method: next.method, redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(next.body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) }, body: next.body });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const index = pair.indexOf('=');
      cookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const location = response.headers.get('location');
    if (location !== null) {
      const url = new URL(location, next.url);
      if (url.origin !== base) {
        const code = url.searchParams.get('code');
        const answer = await (await fetch(`${base}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: registered.client_id, redirect_uri: redirect, resource: `${base}/mcp` }) })).json();
        return answer.access_token;
      }
      next = { url: url.href, method: 'GET' };
      continue;
    }
    const text = await response.text();
    const signIn = /<form id="signin" method="post" action="([^"]+)"/.exec(text)?.[1];
    const allow = /action="([^"]+\/allow)"/.exec(text)?.[1];
    if (signIn !== undefined) next = { url: new URL(signIn, base).href, method: 'POST', body: new URLSearchParams({ token: staticToken }).toString() };
    else if (allow !== undefined) next = { url: new URL(allow, base).href, method: 'POST', body: '' };
    else throw new Error(`the authorization stopped at ${next.url} (${response.status})`);
  }
  throw new Error('the authorization did not end within 20 steps');
}

export function gatewayOf(name) {
  const gateway = gateways[name];
  if (gateway === undefined) throw new Error(`unknown gateway "${name}"; known: ${GATEWAY_NAMES.join(', ')}`);
  return gateway;
}
