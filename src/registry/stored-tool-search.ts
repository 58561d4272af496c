/**
 * @module registry/stored-tool-search
 * A user's tool-search setting as the registry stores it (`users.tool_search`, JSON): checked and
 * completed on the way in, checked again on the way out (a row written by hand or by a newer version
 * fails with the field named rather than somewhere in the gateway).
 */

import { resolveToolSearch, type ToolSearchOption, type ToolSearchSettings } from '../client/search/tool-search-mode.js';
import { ErrorCode, SwitchboardError } from '../errors.js';

/** The settings to store for `option`; throws InvalidArgument naming `where`. */
export function toStoredToolSearch(option: ToolSearchOption, where: string): ToolSearchSettings {
  const resolved = resolveToolSearch(option, where);
  const settings: ToolSearchSettings = typeof option === 'string' ? { mode: option } : option;
  // Only what was set is kept: defaults may improve in a later version.
  return {
    mode: resolved.mode,
    ...(settings.maxTools === undefined ? {} : { maxTools: resolved.maxTools }),
    ...(settings.maxTokens === undefined ? {} : { maxTokens: resolved.maxTokens }),
    ...(settings.pinned === undefined ? {} : { pinned: [...resolved.pinned] }),
    ...(settings.resultLimit === undefined ? {} : { resultLimit: resolved.resultLimit }),
  };
}

/** The settings stored for user `name`. */
export function parseStoredToolSearch(text: string, name: string): ToolSearchSettings {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SwitchboardError(ErrorCode.DatabaseError, `the stored tool-search setting of user "${name}" is not JSON`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SwitchboardError(ErrorCode.DatabaseError, `the stored tool-search setting of user "${name}" is not an object`);
  return toStoredToolSearch(value as ToolSearchSettings, `users.${name}.toolSearch`);
}
