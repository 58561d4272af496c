/**
 * @module config/local-path-fields
 * The one list of the fields of a server entry that name something on the gateway's own host — a
 * file, a folder or a command. An admin's entry may use them; a tenant's may not (see
 * `registry/check-local-paths.ts`): the gateway would read, sign with or run what the tenant names.
 * `local-path-fields.test.ts` walks the config schema and fails on a path-like field missing here.
 */

import type { FieldPath } from './field-path.js';

/**
 * What the field makes the gateway do with what it names:
 * - `process`: start a process (the command, its arguments, its folder) — a tenant needs the
 *   `allowStdio` exception, and a process can read what the gateway can anyway;
 * - `host-file`: read a file itself (e.g. a private key it then signs with) — never for a tenant.
 */
export type LocalPathKind = 'process' | 'host-file';

/** One field that names something on the gateway host. */
export interface LocalPathField {
  path: FieldPath;
  kind: LocalPathKind;
  /** What it names, for messages: "names a command on the gateway host". */
  names: string;
  /** A URL here names a remote server, not a local file (only `path`). @default false */
  mayBeUrl?: boolean;
}

/** Every field of a server entry that names a file, folder or command on the gateway host. */
export const LOCAL_PATH_FIELDS: readonly LocalPathField[] = Object.freeze([
  { path: ['command'], kind: 'process', names: 'a command' },
  { path: ['args'], kind: 'process', names: 'arguments of a command' },
  { path: ['cwd'], kind: 'process', names: 'a folder' },
  // `path` is a process only when it is not a URL (see detect-transport.ts).
  { path: ['path'], kind: 'process', names: 'a file or a command', mayBeUrl: true },
  { path: ['oauth', 'privateKeyFile'], kind: 'host-file', names: 'a file' },
  { path: ['oauth', 'assertionFile'], kind: 'host-file', names: 'a file' },
] satisfies LocalPathField[]);

/** Fields whose names look path-like but name nothing on the host, and why. */
export const NOT_LOCAL_PATH_FIELDS: Readonly<Record<string, string>> = Object.freeze({});
