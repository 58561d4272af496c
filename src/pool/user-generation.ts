/**
 * @module pool/user-generation
 * One generation of a {@link UserClient}: the {@link MultiServerClient} built from one configuration
 * of the user, with the pinned fetch that routes its tenant servers and what the user may see of its
 * errors. A registry change is applied in place to the current generation when it can be; otherwise
 * a new generation is connected and the old one drained and closed. The pure rules that decide which
 * (`signatureOf`, `reconfigurableInPlace`) live here too.
 */

import { MultiServerClient, type MultiServerClientEvents } from '../client/multi-server-client.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { noopLogger } from '../logger.js';
import { createPinnedFetch, type PinnedFetch } from '../registry/pinned-fetch.js';
import type { UserServerConfig } from '../registry/registry-types.js';
import type { Listener } from '../util/typed-emitter.js';
import { TenantDisclosure } from './tenant-disclosure.js';
import type { UserClientOptions } from './pool-types.js';

/** How a generation's connections reach tenant servers; read when a server's connection is made. */
export interface Routing {
  fetch: PinnedFetch | undefined;
  tenantServers: ReadonlySet<string>;
}

/** One client built from one configuration of the user, with what it is routed and shown through. */
export interface Generation {
  client: MultiServerClient;
  routing: Routing;
  config: UserServerConfig;
  /** What the user may see of errors and stderr of these servers. */
  disclosure: TenantDisclosure;
  signature: string;
  running: number;
  idle: (() => void) | undefined;
  /** The `tool-progress` forwarder while someone listens. */
  progress: Listener<MultiServerClientEvents['tool-progress']> | undefined;
}

/** True when some tenant HTTP server must go through the address-pinning fetch. */
export function needsPinning(config: UserServerConfig): boolean {
  return config.policy !== undefined && config.config.servers.some((spec) => spec.type === 'http' && config.tenantServers.has(spec.name));
}

export function pinnedFetchFor(config: UserServerConfig, options: UserClientOptions): Promise<PinnedFetch> {
  if (config.policy === undefined) throw new SwitchboardError(ErrorCode.Internal, 'a pinned fetch needs a tenant policy');
  return createPinnedFetch({
    policy: config.policy,
    ...(options.resolveHost === undefined ? {} : { resolveHost: options.resolveHost }),
    subject: `a server of user "${config.user.name}"`,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
}

export async function connectGeneration(config: UserServerConfig, options: UserClientOptions): Promise<Generation> {
  const routing: Routing = { fetch: needsPinning(config) ? await pinnedFetchFor(config, options) : undefined, tenantServers: config.tenantServers };
  try {
    const client = await MultiServerClient.connect(config.config, {
      ...options.clientOptions,
      logger: (options.logger ?? noopLogger).child({ user: config.user.name }),
      // Read when each connection is made: a reconfiguration may add tenant servers (and the fetch).
      connectionOptions: (spec) => ({
        ...options.connectionOptions?.(spec),
        ...(routing.fetch !== undefined && spec.type === 'http' && routing.tenantServers.has(spec.name) ? { fetch: routing.fetch.fetch } : {}),
      }),
    });
    return { client, routing, config, disclosure: TenantDisclosure.of(config), signature: signatureOf(config), running: 0, idle: undefined, progress: undefined };
  } catch (error) {
    await routing.fetch?.close();
    throw error;
  }
}

export async function closeGeneration(generation: Generation): Promise<void> {
  try {
    await generation.client.close();
  } finally {
    await generation.routing.fetch?.close();
  }
}

/**
 * A new configuration can be applied to the running client unless the user's network policy
 * changed (the pinned fetch enforces it) or a server kept its entry but moved between the user's
 * own and the shared ones (its connection would have to change fetch).
 */
export function reconfigurableInPlace(current: UserServerConfig, next: UserServerConfig): boolean {
  const policyOf = (config: UserServerConfig) => JSON.stringify([config.policy?.allowAddresses ?? null, config.policy?.allowHttpHosts ?? null, config.policy === undefined]);
  if (policyOf(current) !== policyOf(next)) return false;
  const before = new Map(current.config.servers.map((spec) => [spec.name, JSON.stringify(spec)]));
  return next.config.servers.every((spec) => before.get(spec.name) !== JSON.stringify(spec) || current.tenantServers.has(spec.name) === next.tenantServers.has(spec.name));
}

/** What decides whether a refresh needs a new client (secrets included: it never leaves memory). */
export function signatureOf(config: UserServerConfig): string {
  return JSON.stringify({
    servers: config.config.servers,
    tenant: [...config.tenantServers].sort(),
    addresses: config.policy?.allowAddresses ?? null,
    http: config.policy?.allowHttpHosts ?? null,
  });
}
