/**
 * @module config/expand-entry
 * Expands the variables and inputs in every string of one server entry, reporting each reference
 * without a value by its path (names only, never values).
 */

import type { ConfigIssue } from '../errors.js';
import { missingInputIssue, type InputDeclaration } from './config-inputs.js';
import { expandVariables, type VariableSources } from './expand-env.js';

/** What an entry's strings may refer to, and where their problems go. */
export interface ExpansionContext extends VariableSources {
  /** Declared `inputs`, to describe a missing one. */
  declaredInputs?: ReadonlyMap<string, InputDeclaration>;
}

/** The entry with every string expanded; problems are pushed to `issues`. */
export function expandEntry(value: unknown, path: string, context: ExpansionContext, issues: ConfigIssue[]): unknown {
  if (typeof value === 'string') {
    const { value: expanded, missing, missingInputs } = expandVariables(value, context);
    for (const name of missing) {
      issues.push({ path, message: `environment variable ${name} is not set`, hint: `set it, or write \${${name}:-default}` });
    }
    for (const id of missingInputs) issues.push(missingInputIssue(path, id, context.declaredInputs?.get(id)));
    return expanded;
  }
  if (Array.isArray(value)) return value.map((item, index) => expandEntry(item, `${path}.${index}`, context, issues));
  if (typeof value === 'object' && value !== null) {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) result[key] = expandEntry(item, `${path}.${key}`, context, issues);
    return result;
  }
  return value;
}
