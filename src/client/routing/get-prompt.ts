/**
 * @module client/routing/get-prompt
 * `prompts/get` by exposed name: routed to the prompt's server under its own name there.
 */

import type { GetPromptResult } from '../../connection/mcp-types.js';
import type { CallOptions } from '../../connection/call-options.js';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import type { ClientCore } from '../client-core.js';
import { servingConnection } from './serving-connection.js';

/** Gets a prompt by its exposed name; an unknown name is an `INVALID_ARGUMENT`. */
export async function getPrompt(core: ClientCore, name: string, args: Record<string, string>, options: CallOptions): Promise<GetPromptResult> {
  const prompt = core.catalogs.prompts.route(name);
  if (prompt === undefined) throw new SwitchboardError(ErrorCode.InvalidArgument, `There is no prompt named "${name}".`, { operation: 'prompts/get', details: { prompt: name } });
  return servingConnection(core, prompt.server).getPrompt(prompt.originalName, args, options);
}
