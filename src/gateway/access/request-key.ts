/**
 * @module gateway/access/request-key
 * Unguessable ids for waiting approvals (they are decided by id over the API).
 */

import { randomBytes } from 'node:crypto';

/** 16 random bytes, base64url. */
export function newRequestKey(): string {
  return randomBytes(16).toString('base64url');
}
