/**
 * @module gateway/access/request-key
 * Unguessable ids for waiting approvals (they are decided by id over the API and on the command line).
 */

import { randomBytes } from 'node:crypto';

/**
 * 16 random bytes, hex. Not base64url: one id in 32 began with `-`, and `switchboard approvals
 * approve -B-s0H…` read it as flags (its `h` printed the help and exited 0, deciding nothing).
 */
export function newRequestKey(): string {
  return randomBytes(16).toString('hex');
}
