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
import { randomBytes } from 'node:crypto';
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

export function gatewayOf(name) {
  const gateway = gateways[name];
  if (gateway === undefined) throw new Error(`unknown gateway "${name}"; known: ${GATEWAY_NAMES.join(', ')}`);
  return gateway;
}
