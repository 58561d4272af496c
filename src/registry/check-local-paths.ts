/**
 * @module registry/check-local-paths
 * Tenants name nothing on the gateway's host (issue 14, finding 1). Each field of
 * {@link LOCAL_PATH_FIELDS} in a tenant's entry is refused before the entry is normalized, so no file
 * is read, signed with or run, and the answer is the same whether what it names exists or not:
 * - a `host-file` field (`oauth.privateKeyFile`) is never allowed: a config error (400) naming the field;
 * - a `process` field (`command`, `args`, `cwd`, a non-URL `path`) breaks the `stdio` rule (403)
 *   unless an admin granted `allowStdio`.
 */

import type { ConfigIssue } from '../errors.js';
import { dottedPath, valueAtPath } from '../config/field-path.js';
import { LOCAL_PATH_FIELDS } from '../config/local-path-fields.js';
import type { PolicyViolation, TenantPolicy } from './tenant-policy.js';

/** The hint of a refused process field (also the stdio rule's). */
export const STDIO_HINT = 'use a remote https:// server, or an instance of an admin template (`switchboard templates list`)';

/** The config issues of `host-file` fields in a tenant's entry (`where`: the entry's path, `servers.NAME`). */
export function hostFileIssues(entry: Readonly<Record<string, unknown>>, where: string): ConfigIssue[] {
  return LOCAL_PATH_FIELDS.filter((field) => field.kind === 'host-file' && valueAtPath(entry, field.path) !== undefined).map((field) => ({
    path: `${where}.${dottedPath(field.path)}`,
    // Never the value: what it names, and whether that exists, stays unsaid.
    message: `names ${field.names} on the gateway host, which a tenant's server cannot use`,
    hint: hostFileHint(field.path),
  }));
}

/** The `stdio` violations of `process` fields in a tenant's entry, unless the policy allows processes. */
export function processFieldViolations(entry: Readonly<Record<string, unknown>>, name: string, policy: Pick<TenantPolicy, 'allowStdio'>): PolicyViolation[] {
  if (policy.allowStdio) return [];
  return LOCAL_PATH_FIELDS.filter((field) => field.kind === 'process' && isLocal(valueAtPath(entry, field.path), field.mayBeUrl === true)).map((field) => ({
    rule: 'stdio',
    message: `${name}.${dottedPath(field.path)} names ${field.names} on the gateway host; tenants cannot start server processes`,
    hint: STDIO_HINT,
  }));
}

/** A URL in `path` names a remote server, not a file (other schemes break the `url-scheme` rule). */
function isLocal(value: unknown, mayBeUrl: boolean): boolean {
  if (value === undefined) return false;
  // A one-letter "scheme" is a Windows drive (C:\…): a local path.
  return !(mayBeUrl && typeof value === 'string' && /^\s*[a-z][a-z0-9+.-]+:/i.test(value));
}

function hostFileHint(path: readonly string[]): string {
  if (dottedPath(path) === 'oauth.privateKeyFile') return 'put the PEM key itself in `oauth.privateKey` (it is stored encrypted, like the other secrets)';
  if (dottedPath(path) === 'oauth.assertionFile') return 'put the JWT itself in `oauth.assertion` (it is stored encrypted, like the other secrets)';
  return 'give the value itself instead of a file';
}
