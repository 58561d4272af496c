/**
 * @module gateway/endpoint-items
 * The prompts, resources and resource templates a named endpoint shows: those of the servers it serves
 * to this caller (see `ToolGate.servesPromptsOf`), so an endpoint over one server does not hand out
 * every server's prompts and resources — with `/mcp` off, the way around its selection. On `/mcp` (no
 * gate, or a gate without an endpoint) everything of the user's catalog.
 */

import { ErrorCode, SwitchboardError } from '../errors.js';
import type { UserClient } from '../pool/index.js';
import type { ToolGate } from './access/tool-gate.js';

/** The items of `items` this endpoint shows. */
export function shownItems<T extends { server: string }>(gate: ToolGate | undefined, client: UserClient, items: T[]): T[] {
  const serves = gate?.servesPromptsOf(client);
  return serves === undefined ? items : items.filter((item) => serves(item.server));
}

/** Throws, as for an item that does not exist, unless this endpoint shows `server`'s prompts and resources. */
export function requireShown(gate: ToolGate | undefined, client: UserClient, server: string, refusal: () => SwitchboardError): void {
  const serves = gate?.servesPromptsOf(client);
  if (serves !== undefined && !serves(server)) throw refusal();
}

/** The refusal of a prompt that is not there (the client's own words for an unknown one). */
export function noPrompt(name: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.InvalidArgument, `There is no prompt named "${name}".`, { operation: 'prompts/get', details: { prompt: name } });
}

/** The refusal of a resource no shown server offers. */
export function noResource(uri: string): SwitchboardError {
  return new SwitchboardError(ErrorCode.InvalidArgument, `no server offers a resource at "${uri}"`);
}
