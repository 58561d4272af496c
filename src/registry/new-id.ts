/**
 * @module registry/new-id
 * Record ids: UUIDv7 strings (RFC 9562), time-ordered so rows sort by creation on both backends
 * without a dialect-specific sequence, and unguessable (74 random bits).
 */

import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;
// Random bytes drawn 4 KiB at a time: one `randomBytes` call per id was a visible share of a gateway
// call (an audit entry per call); the bytes are as random, the pool is never reused.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let poolOffset = POOL_BYTES;

/** The bytes of the id being built: one buffer reused (ids are built synchronously, one at a time). */
const scratch = Buffer.alloc(16);

function random16(): Buffer {
  if (poolOffset + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  pool.copy(scratch, 0, poolOffset, poolOffset + 16);
  poolOffset += 16;
  return scratch;
}

/** A new UUIDv7, strictly increasing within this process. */
export function newId(now: number = Date.now()): string {
  // Within one millisecond, a 12-bit counter in `rand_a` keeps ids monotonic (RFC 9562 §6.2, method 1).
  if (now <= lastMs) {
    sequence++;
    if (sequence > 0xfff) {
      lastMs++;
      sequence = 0;
    }
  } else {
    lastMs = now;
    sequence = 0;
  }
  const bytes = random16();
  const ms = lastMs;
  bytes[0] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[2] = (ms >>> 24) & 0xff;
  bytes[3] = (ms >>> 16) & 0xff;
  bytes[4] = (ms >>> 8) & 0xff;
  bytes[5] = ms & 0xff;
  bytes[6] = 0x70 | ((sequence >>> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
