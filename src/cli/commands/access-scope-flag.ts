/**
 * @module cli/commands/access-scope-flag
 * `--scope global | endpoint:NAME | group:NAME | user:NAME` of `switchboard rules` and `limits`,
 * and `--definition JSON|@file` of `switchboard endpoints`.
 */

import { readFile } from 'node:fs/promises';
import type { AccessScope } from '../../registry/index.js';
import { usageError } from '../cli-error.js';

/** Parses a `--scope` value. */
export function parseScope(value: string | undefined): AccessScope {
  if (value === undefined || value === 'global') return { kind: 'global' };
  const match = /^(endpoint|group|user):(.+)$/.exec(value);
  if (match?.[1] === undefined || match[2] === undefined) throw usageError(`--scope takes global, endpoint:NAME, group:NAME or user:NAME, got "${value}"`);
  return { kind: match[1] as 'endpoint' | 'group' | 'user', name: match[2] };
}

/** A scope in words. */
export function scopeText(scope: AccessScope): string {
  return scope.kind === 'global' ? 'global' : `${scope.kind}:${scope.name}`;
}

/** A JSON object from `--definition` (inline, or `@file`). */
export async function jsonDefinition(raw: string): Promise<Record<string, unknown>> {
  const text = raw.startsWith('@') ? await readFile(raw.slice(1), 'utf8') : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`--definition is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw usageError('--definition must be a JSON object');
  return { ...value };
}
