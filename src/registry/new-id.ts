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

/** The id's text, built in one reused buffer: one string per id instead of a hex string, five slices and their join. */
const text = Buffer.alloc(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** Takes 16 fresh random bytes; returns where they start in `pool` (read once, never reused). */
function random16(): number {
  if (poolOffset + 16 > pool.length) {
    pool = randomBytes(POOL_BYTES);
    poolOffset = 0;
  }
  const start = poolOffset;
  poolOffset += 16;
  return start;
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
  const start = random16();
  const bytes = pool;
  const ms = lastMs;
  bytes[start] = Math.floor(ms / 2 ** 40) & 0xff;
  bytes[start + 1] = Math.floor(ms / 2 ** 32) & 0xff;
  bytes[start + 2] = (ms >>> 24) & 0xff;
  bytes[start + 3] = (ms >>> 16) & 0xff;
  bytes[start + 4] = (ms >>> 8) & 0xff;
  bytes[start + 5] = ms & 0xff;
  bytes[start + 6] = 0x70 | ((sequence >>> 8) & 0x0f);
  bytes[start + 7] = sequence & 0xff;
  bytes[start + 8] = 0x80 | ((bytes[start + 8] ?? 0) & 0x3f);
  let at = 0;
  for (let index = 0; index < 16; index++) {
    // The dashes of `8-4-4-4-12`: before bytes 4, 6, 8 and 10.
    if (index === 4 || index === 6 || index === 8 || index === 10) text[at++] = 0x2d;
    const byte = bytes[start + index] ?? 0;
    text[at++] = HEX[byte >>> 4] ?? 0;
    text[at++] = HEX[byte & 0x0f] ?? 0;
  }
  return text.toString('latin1', 0, 36);
}
