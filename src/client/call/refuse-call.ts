/**
 * @module client/call/refuse-call
 * Refusing a call before anything is sent (a name that does not route, invalid arguments): the
 * refusal is counted in the stats and told as `tool-call-refused`; the caller gets the error.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { CatalogTool } from '../catalog/catalog-items.js';
import type { ClientCore } from '../client-core.js';
import { formatArgumentProblems, type ArgumentProblem } from './argument-validator.js';
import { refusalOf } from './refusal-of.js';
import { refusedCallEvent } from './refused-call-event.js';
import { unknownToolError, type ServerFacts } from './unknown-tool.js';

/** Rejects with `error` (nothing was sent), counted and told as a refusal. */
export function refuseCall(core: ClientCore, error: SwitchboardError, name: string, tool?: CatalogTool): Promise<never> {
  const refusal = refusalOf(error, tool, tool === undefined ? core.catalogs.tools.owner(name) : undefined);
  core.stats.callRefused(refusal);
  if (core.events.listenerCount('tool-call-refused') > 0) core.events.emit('tool-call-refused', refusedCallEvent(++core.nextCallId, tool?.name ?? name, refusal));
  return Promise.reject(error);
}

/** The error for a name that does not route (on `server`, when the caller named one). */
export function unknownToolOf(core: ClientCore, name: string, server?: string): SwitchboardError {
  const servers = new Map<string, ServerFacts>();
  for (const slot of core.slots.values()) {
    servers.set(slot.spec.name, { name: slot.spec.name, prefix: slot.spec.prefix ?? slot.spec.name, enabled: slot.spec.enabled, state: slot.state, lastError: slot.lastError });
  }
  const tools = core.catalogs.tools;
  return unknownToolError(name, { owner: (candidate) => tools.owner(candidate), tools: tools.entries, servers }, server, core.catalogs.unavailable.get(name));
}

/** The error for arguments that do not fit the tool's schema. */
export function invalidArgumentsError(tool: CatalogTool, problems: ArgumentProblem[]): SwitchboardError {
  const reason = `invalid arguments: ${formatArgumentProblems(problems)}`;
  return new SwitchboardError(ErrorCode.InvalidArgument, `Tool "${tool.name}" on server "${tool.server}" was not called: ${reason}. Fix the arguments and call again.`, {
    server: tool.server,
    tool: tool.name,
    operation: 'tools/call',
    reason,
    details: { tool: tool.name, problems, retryable: false },
  });
}
