/**
 * @module pool
 * The per-user runtime pool: one {@link UserClient} per user over the registry's servers, created on
 * first use and evicted when idle. The gateway's entry into this folder; `mcp-switchboard/registry`
 * re-exports the public names.
 */

export { ClientPool, DEFAULT_IDLE_TTL_MS, DEFAULT_MAX_CLIENTS } from './client-pool.js';
export { UserClient, TOOL_ERROR_CODE, DEFAULT_DRAIN_TIMEOUT_MS } from './user-client.js';
export { CallLimiter, DEFAULT_CALL_QUEUE_TIMEOUT_MS } from './call-limiter.js';
export type { CallGate, CallGateOptions, GatedUser } from './call-gate.js';
export { CALL_LEASE_RECHECK_MS, CALL_LEASE_RENEW_MS, CALL_LEASE_TTL_MS, ClusterCallLimiter, type CallLeaseSource, type ClusterCallLimiterOptions, type ClusterMembership } from './cluster-call-limiter.js';
export type {
  ClientLease,
  ClientPoolEvents,
  ClientPoolOptions,
  ClientPoolTuning,
  ConnectionOptionsFor,
  EvictionReason,
  SharedConfig,
  UserClientClientOptions,
  UserClientEvents,
  UserClientOptions,
} from './pool-types.js';
export { ADMIN_DETAIL_HINT, TenantDisclosure } from './tenant-disclosure.js';
