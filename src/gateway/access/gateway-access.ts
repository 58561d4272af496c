/**
 * @module gateway/access/gateway-access
 * Access control of the gateway (issue 21): the access configuration kept current, one
 * {@link ToolGate} per caller and endpoint, the named endpoints served at `/mcp/e/NAME` (one MCP
 * endpoint each, created on first use, closed when the endpoint is removed), the rate-limit buckets
 * and the calls waiting for approval. A change to rules, limits, groups or endpoints tells every
 * connected client that its tool list changed.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { EndpointRecord, RegistryUser, ServerRegistry } from '../../registry/index.js';
import type { ToolSearchMode } from '../../client/search/tool-search-mode.js';
import type { McpEndpoint } from '../mcp-endpoint.js';
import { AccessState } from './access-state.js';
import { PendingApprovals } from './pending-approvals.js';
import { MemoryBucketStore, type RateBucketStore } from './rate-buckets.js';
import { ToolGate, mayUseEndpoint, type ToolGateContext } from './tool-gate.js';
import { innerMap } from '../../util/inner-map.js';

/** Options of {@link GatewayAccess}. */
export interface GatewayAccessOptions {
  /** The clock of the rate limits. @default Date.now */
  now?: () => number;
  /**
   * Where rate-limit buckets live. @default on PostgreSQL the registry's buckets (shared by every
   * replica of a cluster); on SQLite a {@link MemoryBucketStore} (one process)
   */
  buckets?: RateBucketStore;
  /** Tool search for users without their own setting. @default none (every definition) */
  toolSearchDefault?: ToolSearchMode;
}

/** Access control of one gateway. */
export class GatewayAccess {
  readonly state: AccessState;
  readonly approvals = new PendingApprovals();
  readonly #context: ToolGateContext;
  readonly #logger: Logger;
  /** Gates by user id, then endpoint (`''`: `/mcp` itself): no key string built per call (issue 17). */
  readonly #gates = new Map<string, Map<string, ToolGate>>();
  readonly #named = new Map<string, McpEndpoint>();
  readonly #listChanged: Array<() => void> = [];
  #factory: ((name: string) => McpEndpoint) | undefined;

  constructor(registry: ServerRegistry, logger: Logger, options: GatewayAccessOptions = {}) {
    this.#logger = logger;
    this.state = new AccessState(registry, logger);
    this.#context = {
      state: this.state,
      buckets: options.buckets ?? (registry.backend === 'postgres' ? registry.rateBuckets : new MemoryBucketStore()),
      now: options.now ?? Date.now,
      approvals: this.approvals,
      logger,
      toolSearchDefault: options.toolSearchDefault,
      audit: (entry) => void registry.audit.record(entry).catch((error: unknown) => logger.warn('cannot write a policy decision to the audit log', { error: String(error) })),
    };
    this.state.on('changed', ({ snapshot }) => {
      this.#gates.clear();
      for (const [name, endpoint] of this.#named) {
        if (snapshot.endpoints.has(name)) continue;
        this.#named.delete(name);
        void endpoint.close();
      }
      for (const notify of this.#listChanged) notify();
      for (const endpoint of this.#named.values()) endpoint.toolsChanged();
    });
  }

  /** Loads the access configuration (before the gateway serves). */
  start(): Promise<void> {
    return this.state.reload();
  }

  /** How named endpoints are built (the gateway's MCP endpoint options, with this endpoint's gate). */
  serveNamedWith(factory: (name: string) => McpEndpoint): void {
    this.#factory = factory;
  }

  /** Called after every change of the access configuration (the `/mcp` endpoint's list_changed). */
  onListChanged(notify: () => void): void {
    this.#listChanged.push(notify);
  }

  /** The gate of `user` on `endpoint` (`/mcp` when undefined). */
  gateFor(user: RegistryUser, endpoint?: string): ToolGate {
    const byEndpoint = innerMap(this.#gates, user.id);
    let gate = byEndpoint.get(endpoint ?? '');
    if (gate === undefined) {
      gate = new ToolGate(this.#context, user, endpoint);
      byEndpoint.set(endpoint ?? '', gate);
    }
    return gate;
  }


  /** The endpoint record `user` may use, or NOT_FOUND (also when it exists but is not theirs to use). */
  endpointFor(user: RegistryUser, name: string): EndpointRecord {
    const snapshot = this.state.current;
    const endpoint = snapshot.endpoints.get(name);
    if (endpoint === undefined || !mayUseEndpoint(endpoint, user, snapshot.groups.get(user.id) ?? [], snapshot.everythingEndpoint)) {
      throw new SwitchboardError(ErrorCode.NotFound, `there is no endpoint "${name.slice(0, 80)}" for you`, { hint: 'GET /api/endpoints lists the endpoints you may use' });
    }
    return endpoint;
  }

  /** The endpoints `user` may use, by name. */
  endpointsOf(user: RegistryUser): EndpointRecord[] {
    const snapshot = this.state.current;
    return [...snapshot.endpoints.values()].filter((endpoint) => mayUseEndpoint(endpoint, user, snapshot.groups.get(user.id) ?? [], snapshot.everythingEndpoint));
  }

  /** The MCP endpoint serving `/mcp/e/NAME` for `user` (NOT_FOUND unless they may use it). */
  namedEndpoint(user: RegistryUser, name: string): McpEndpoint {
    this.endpointFor(user, name);
    let endpoint = this.#named.get(name);
    if (endpoint === undefined) {
      if (this.#factory === undefined) throw new SwitchboardError(ErrorCode.Unavailable, 'the gateway is starting');
      endpoint = this.#factory(name);
      this.#named.set(name, endpoint);
      this.#logger.info('named endpoint started', { endpoint: name });
    }
    return endpoint;
  }

  /** True when `user` may use `/mcp` (the everything endpoint): admins always, others unless it is off. */
  everythingAllowed(user: RegistryUser): boolean {
    return user.isAdmin || this.state.current.everythingEndpoint;
  }

  /** The named MCP endpoints running now (shutdown waits on them too). */
  get running(): McpEndpoint[] {
    return [...this.#named.values()];
  }

  /** Refuses waiting approvals, closes the named endpoints and stops following the registry. */
  async close(): Promise<void> {
    this.approvals.close();
    const named = [...this.#named.values()];
    this.#named.clear();
    await Promise.all(named.map((endpoint) => endpoint.close()));
    this.state.close();
  }
}
