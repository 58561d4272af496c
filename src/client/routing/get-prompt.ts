/**
 * @module client/routing/get-prompt
 * `prompts/get` and a server's instructions through the client: a prompt by its exposed name, sent
 * to its serving server under the name that server gave it.
 */

import type { GetPromptResult } from '../../connection/mcp-types.js';
import type { CallOptions } from '../../connection/server-connection.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ClientCore } from '../client-core.js';
import { isServing } from '../serving.js';
import { servingConnection } from './serving-connection.js';

/** Gets the prompt exposed as `name` (see {@link MultiServerClient.getPrompt}). */
export function getPrompt(core: ClientCore, name: string, args: Record<string, string>, options: CallOptions): Promise<GetPromptResult> {
  const prompt = core.catalogs.prompts.route(name);
  if (prompt === undefined) return Promise.reject(new SwitchboardError(ErrorCode.InvalidArgument, `There is no prompt named "${name}".`, { operation: 'prompts/get', details: { prompt: name } }));
  return servingConnection(core, prompt.server).getPrompt(prompt.originalName, args, options);
}

/** A server's instructions from its handshake, while it serves. */
export function instructionsOf(core: ClientCore, server: string): string | undefined {
  const slot = core.slots.get(server);
  return slot !== undefined && isServing(slot.state) ? slot.connection?.instructions : undefined;
}
