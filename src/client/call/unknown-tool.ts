/**
 * @module client/call/unknown-tool
 * The error for a tool name that does not route: a name of a server that is not up says so (with
 * the server's state, reason and hint), and a mistyped name gets "Did you mean" — only among the
 * tools of the server the caller named (by the name's prefix or by `server`), never another's.
 */

import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ServerState } from '../../connection/server-state.js';
import { PREFIX_SEPARATOR, sanitizeName } from '../catalog/name-catalog.js';
import type { RoutedEntry } from '../catalog/routed-catalog.js';
import { suggestNames } from '../catalog/suggest-names.js';
import { isServing } from '../serving.js';

/** What the message needs of one configured server. */
export interface ServerFacts {
  name: string;
  prefix: string;
  enabled: boolean;
  state: ServerState;
  lastError: SwitchboardError | undefined;
}

/** Where the lookup happens. */
export interface UnknownToolContext {
  /** Whose a name is, live or last known (`offline`). */
  owner(name: string): (RoutedEntry & { offline: boolean }) | undefined;
  /** The tools on offer. */
  tools: readonly RoutedEntry[];
  servers: ReadonlyMap<string, ServerFacts>;
}

/** The error for calling `name` (on `server`, when the caller named one), which did not route. */
export function unknownToolError(name: string, context: UnknownToolContext, server?: string, wasOwnedBy?: string): SwitchboardError {
  const owner = context.owner(name);
  const named = server ?? serverOfPrefix(name, context.servers);
  const ownerServer = owner?.offline === true ? owner.server : owner === undefined ? wasOwnedBy : undefined;
  if (ownerServer !== undefined && (named === undefined || named === ownerServer)) {
    const facts = context.servers.get(ownerServer);
    if (facts !== undefined && !isServing(facts.state)) return notUp(name, facts, 'belongs to');
  }
  if (named !== undefined) {
    const facts = context.servers.get(named);
    if (facts !== undefined && facts.enabled && !isServing(facts.state)) return notUp(name, facts, 'is addressed to');
  }
  const candidates = context.tools.filter((tool) => named === undefined || tool.server === named);
  const query = named === undefined ? name : withoutPrefix(name, context.servers.get(named));
  const similar = suggestNames(query, candidates.map((tool) => ({ name: tool.name, also: [tool.originalName] })));
  const elsewhere = server !== undefined && owner !== undefined && owner.server !== server ? ` ("${name}" is a tool of server "${owner.server}")` : '';
  const where = server === undefined ? '' : ` on server "${server}"`;
  return new SwitchboardError(
    ErrorCode.ToolNotFound,
    `There is no tool named "${name}"${where}${elsewhere}.${similar.length > 0 ? ` Did you mean ${similar.map((item) => `"${item}"`).join(', ')}?` : ''} Use one of the listed tools.`,
    { ...(server === undefined ? {} : { server }), tool: name, operation: 'tools/call', details: { tool: name, retryable: false, ...(similar.length > 0 ? { similar } : {}) } },
  );
}

function notUp(name: string, facts: ServerFacts, relation: string): SwitchboardError {
  // One line: the reason is for a model to read, not the server's whole stderr.
  const error = facts.lastError;
  const firstLine = error === undefined ? undefined : error.reason.split('\n')[0]?.replace(/; stderr:$/, '');
  const reason = facts.state === 'connecting' ? ' (still starting)' : facts.state === 'closed' ? ' (not started)' : firstLine === undefined || firstLine === '' ? '' : ` (${firstLine})`;
  const retryable = facts.state !== 'closed';
  const hint = facts.state === 'connecting' ? 'call it again once the server is ready' : facts.state === 'closed' ? `start server "${facts.name}" (it was not started)` : facts.lastError?.hint;
  return new SwitchboardError(
    ErrorCode.ServerDisconnected,
    `Tool "${name}" ${relation} server "${facts.name}", which is ${facts.state}${reason}.${retryable ? ' Retrying may help once it is back.' : ''}`,
    { server: facts.name, tool: name, operation: 'tools/call', ...(hint === undefined ? {} : { hint }), details: { tool: name, state: facts.state, retryable } },
  );
}

/** The server a prefixed name names (the longest matching prefix), if any. */
export function serverOfPrefix(name: string, servers: ReadonlyMap<string, ServerFacts>): string | undefined {
  let best: string | undefined;
  let bestLength = 0;
  for (const facts of servers.values()) {
    const prefix = `${sanitizeName(facts.prefix)}${PREFIX_SEPARATOR}`;
    if (name.startsWith(prefix) && prefix.length > bestLength) {
      best = facts.name;
      bestLength = prefix.length;
    }
  }
  return best;
}

function withoutPrefix(name: string, facts: ServerFacts | undefined): string {
  if (facts === undefined) return name;
  const prefix = `${sanitizeName(facts.prefix)}${PREFIX_SEPARATOR}`;
  return name.startsWith(prefix) ? name.slice(prefix.length) : name;
}
