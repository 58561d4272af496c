/**
 * @module connection/lifecycle/clock
 * Time as the lifecycle sees it, injectable so restart, probe and health timers have unit tests on
 * fake timers. The system clock's timers never keep the process alive.
 */

/** An opaque timer handle. */
export type TimerHandle = { readonly __timer: unique symbol } | object;

/** Now and one-shot timers. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

/** `Date.now` and unref'd Node timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
