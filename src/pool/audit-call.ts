/**
 * @module pool/audit-call
 * The audit entry of one call of a user's client, once per call on the gateway's path: built as one
 * object shape whatever is absent (conditional spreads made a hidden class per combination, issue 17).
 */

import type { AuditWriter } from '../registry/audit-writer.js';
import type { RegistryUser } from '../registry/registry-types.js';
import type { Generation } from './user-generation.js';

/** Writes the entry of a call of `name` by `user` that took `durationMs` (`errorCode` when it failed). */
export function auditCall(audit: AuditWriter, user: RegistryUser, generation: Generation | undefined, name: string, args: Record<string, unknown> | undefined, durationMs: number, errorCode: string | undefined): void {
  // Whose the name is even while its server is not up, so a refused call is filed under its tool.
  const tool = generation?.client.ownerOf(name);
  audit.write({
    userId: user.id,
    userName: user.name,
    server: tool?.server,
    tool: tool?.originalName ?? name,
    ok: errorCode === undefined,
    errorCode,
    durationMs,
    arguments: args,
  });
}
