/**
 * A small seeded random generator for property tests, so that a failure names a seed that reproduces it.
 */

/** A source of numbers in [0, 1). */
export type Rand = () => number;

/** A generator seeded with `seed` (mulberry32): the same seed gives the same numbers. */
export function seededRandom(seed: number): Rand {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One of `items`, chosen by `rand` (`items` must not be empty). */
export const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
