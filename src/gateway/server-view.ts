/**
 * @module gateway/server-view
 * A server as `/api/servers` shows it ({@link ServerView}, defined in the API contract): where it comes from (the user's
 * own, shared in the registry, or shared from the config file), whether this user may edit it, its
 * entry with secrets masked (shared servers show tenants no entry at all), and its live state and
 * numbers from the user's client.
 */

import type { ServerStatus } from '../client/multi-server-client.js';
import type { ServerSpec } from '../config/server-spec.js';
import type { ServerView, ServerViewStats } from '../contract/api-contract.js';
import type { ClientStats, ServerStats } from '../metrics/stats-collector.js';

export type { ServerView, ServerViewStats };
import { maskUrl, maskValues, type RegisteredServer, type RegistryUser } from '../registry/index.js';

/** What a view is built from. */
export interface ServerViewSources {
  user: RegistryUser;
  /** The user's registry servers and the shared ones (as the tenant view lists them). */
  registered: readonly RegisteredServer[];
  /** The config file's servers. */
  configServers: readonly ServerSpec[];
  status: readonly ServerStatus[];
  stats: ClientStats;
}

/** The user's servers, by name. */
export function buildServerViews(sources: ServerViewSources): ServerView[] {
  const views: ServerView[] = [];
  const names = new Set<string>();
  for (const server of sources.registered) {
    if (names.has(server.name)) continue;
    names.add(server.name);
    const description = server.entry.description;
    views.push(
      withLiveState(
        {
          name: server.name,
          shared: server.shared,
          editable: !server.shared || sources.user.isAdmin,
          enabled: server.enabled,
          kind: server.kind === 'http' ? 'url' : server.kind,
          entry: server.entry,
          ...(typeof description === 'string' ? { description } : {}),
        },
        sources,
      ),
    );
  }
  for (const spec of sources.configServers) {
    if (names.has(spec.name)) continue;
    names.add(spec.name);
    views.push(
      withLiveState(
        { name: spec.name, shared: true, editable: false, enabled: spec.enabled, kind: spec.type === 'http' ? 'url' : 'stdio', entry: sources.user.isAdmin ? entryOfSpec(spec) : {} },
        sources,
      ),
    );
  }
  return views.sort((a, b) => a.name.localeCompare(b.name));
}

type StaticPart = Pick<ServerView, 'name' | 'shared' | 'editable' | 'enabled' | 'kind' | 'entry' | 'description'>;

function withLiveState(view: StaticPart, sources: ServerViewSources): ServerView {
  const status = view.enabled ? sources.status.find((item) => item.name === view.name) : undefined;
  const stats = sources.stats.servers.find((item) => item.server === view.name);
  return {
    ...view,
    state: status?.state ?? 'closed',
    ...(status?.transport === undefined ? {} : { transport: status.transport }),
    ...(status?.protocolVersion === undefined ? {} : { protocolVersion: status.protocolVersion }),
    ...(status?.readyAt === undefined ? {} : { readyAt: status.readyAt }),
    ...(status?.serverInfo?.icons === undefined ? {} : { icons: status.serverInfo.icons }),
    restarts: status?.restarts ?? 0,
    toolCount: status?.toolCount ?? 0,
    ...(status?.error === undefined ? {} : { error: status.error }),
    stats: statsOf(stats),
  };
}

function statsOf(stats: ServerStats | undefined): ServerViewStats {
  if (stats === undefined) return { calls: 0, refused: {}, errorRate: 0, latency: { p50: 0, p95: 0, p99: 0 }, timeline: [] };
  return { calls: stats.calls, refused: stats.refused, errorRate: stats.errorRate, latency: { p50: stats.latency.p50, p95: stats.latency.p95, p99: stats.latency.p99 }, timeline: stats.timeline };
}

/** A normalized spec as a config-file entry, secrets masked (for administrators). */
export function entryOfSpec(spec: ServerSpec): Record<string, unknown> {
  if (spec.type === 'http') {
    return {
      url: maskUrl(spec.url),
      ...(Object.keys(spec.headers).length === 0 ? {} : { headers: maskValues(spec.headers) }),
      ...(spec.transport === 'auto' ? {} : { transport: spec.transport }),
    };
  }
  return {
    command: spec.command,
    args: [...spec.args],
    ...(Object.keys(spec.env).length === 0 ? {} : { env: maskValues(spec.env) }),
    ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
  };
}
