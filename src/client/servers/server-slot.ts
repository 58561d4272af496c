/**
 * @module client/servers/server-slot
 * One configured server as the client holds it: its spec, its connection (which restarts and
 * reconnects itself), its last lists, the calls running on it, and its state as the client reports
 * it — the connection's state, except that a start counts as `connecting` until the lists are in.
 */

import type { ServerSpec } from '../../config/server-spec.js';
import { unresolvedServerError } from '../../config/unresolved-server-spec.js';
import type { PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from '../../connection/mcp-types.js';
import { ServerConnection } from '../../connection/server-connection.js';
import type { ServerState } from '../../connection/server-state.js';
import type { SwitchboardError } from '../../errors.js';
import type { ClientCore } from '../client-core.js';
import type { KnownToolNames } from '../catalog/catalog-store.js';
import { globMatcher } from '../catalog/glob.js';
import { knownToolsFromNames } from '../catalog/tool-sources.js';
import { DEFAULT_LIST_CHANGED_DEBOUNCE_MS } from '../multi-server-client-options.js';
import { connectionOptionsFor } from './connection-options.js';
import type { Drainable } from './drain-calls.js';
import { ListChangeDebouncer } from './list-change-debouncer.js';
import { observeConnection } from './observe-connection.js';

/** One configured server. */
export interface ServerSlot extends Drainable {
  readonly spec: ServerSpec;
  /** Absent for a disabled server and one whose variables have no value. */
  readonly connection: ServerConnection | undefined;
  starting: Promise<void> | undefined;
  tools: ToolDefinition[];
  /** The last list of tools known (from this process or the catalog cache); names are decided from it while the server is not up. */
  knownTools: ToolDefinition[] | undefined;
  prompts: PromptDefinition[];
  resources: ResourceDefinition[];
  resourceTemplates: ResourceTemplateDefinition[];
  lastError: SwitchboardError | undefined;
  state: ServerState;
  readonly listTimers: ListChangeDebouncer;
  /** Tools named by the cache policy's `tools` globs. */
  readonly cacheMatcher: ((name: string) => boolean) | undefined;
  /** Removed or replaced by a reconfiguration: its events no longer count. */
  retired: boolean;
  /** The last start's timing (see ServerStatus.startMs). */
  startTiming: { startMs: number; queuedMs: number } | undefined;
}

/** A slot for `spec`, with its connection created and observed (not started). */
export function createServerSlot(core: ClientCore, spec: ServerSpec, known?: KnownToolNames): ServerSlot {
  const options = core.options;
  const unresolved = spec.enabled ? unresolvedServerError(spec) : undefined;
  // One connection per slot: it restarts, reconnects and retries failed starts itself.
  const connection = spec.enabled && unresolved === undefined ? new ServerConnection(spec, connectionOptionsFor(options, spec, core.logger, core.startLimiter, core.started)) : undefined;
  const slot: ServerSlot = {
    spec,
    connection,
    starting: undefined,
    tools: [],
    knownTools: known === undefined ? undefined : knownToolsFromNames(known.tools),
    prompts: [],
    resources: [],
    resourceTemplates: [],
    lastError: unresolved,
    state: unresolved !== undefined ? 'failed' : spec.enabled ? 'connecting' : 'closed',
    listTimers: new ListChangeDebouncer({ delayMs: options.listChangedDebounceMs ?? DEFAULT_LIST_CHANGED_DEBOUNCE_MS, ...(options.listChangedMaxWaitMs === undefined ? {} : { maxWaitMs: options.listChangedMaxWaitMs }) }),
    cacheMatcher: spec.cache?.tools === undefined || spec.cache.tools.length === 0 ? undefined : globMatcher(spec.cache.tools),
    running: 0,
    idle: undefined,
    retired: false,
    startTiming: undefined,
  };
  if (unresolved !== undefined) {
    // Its variables have no value: it cannot start, and says why; the other servers carry on.
    core.logger.warn('server failed to start', { server: spec.name, code: unresolved.code, error: unresolved.message, ...(unresolved.hint === undefined ? {} : { hint: unresolved.hint }) });
  }
  if (connection !== undefined) observeConnection(core, slot, connection);
  return slot;
}

/** Sets the state the client reports for a slot; emits `server-state-change` when it changed. */
export function setSlotState(core: ClientCore, slot: ServerSlot, to: ServerState, error?: SwitchboardError): void {
  const from = slot.state;
  if (from === to) return;
  slot.state = to;
  core.events.emit('server-state-change', { server: slot.spec.name, from, to, ...(error === undefined ? {} : { error }) });
}
