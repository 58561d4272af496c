/**
 * @module config/unresolved-server-spec
 * A server entry whose variables or inputs have no value, kept as a spec that is never started: with
 * `onServerError: skip` it is reported failed (`CONFIG_INVALID`, with the path and what to do) while
 * the other servers start.
 */

import { ErrorCode, SwitchboardError, formatConfigIssue, type ConfigIssue } from '../errors.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_STARTUP_TIMEOUT_MS, type ServerSpec } from './server-spec.js';

/** The placeholder spec of an entry that cannot be resolved (what it would start is unknown, so nothing). */
export function unresolvedServerSpec(name: string, rawEntry: object, issues: ConfigIssue[]): ServerSpec {
  const fields: Record<string, unknown> = { ...rawEntry };
  const enabled = fields.enabled === false ? false : fields.disabled !== true;
  const common = { name, enabled, startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS, callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS, unresolved: issues };
  if (typeof fields.url === 'string') return { ...common, type: 'http', url: '', headers: {}, transport: 'auto', protocol: 'auto' };
  return { ...common, type: 'stdio', command: '', args: [], env: {}, inheritEnv: [], protocol: 'legacy' };
}

/** The error a server with `unresolved` issues fails with: every issue, each with its path. */
export function unresolvedServerError(spec: ServerSpec): SwitchboardError | undefined {
  const issues = spec.unresolved;
  if (issues === undefined || issues.length === 0) return undefined;
  const hints = [...new Set(issues.map((issue) => issue.hint).filter((hint) => hint !== undefined))];
  return new SwitchboardError(ErrorCode.ConfigInvalid, issues.map((issue) => formatConfigIssue({ path: issue.path, message: issue.message })).join('; '), {
    server: spec.name,
    ...(hints.length === 0 ? {} : { hint: hints.join('; ') }),
    details: { issues },
  });
}
