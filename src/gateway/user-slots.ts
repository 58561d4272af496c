/**
 * @module gateway/user-slots
 * A cap on long-lived things a user holds open (2025-era sessions, 2026-07-28 `subscriptions/listen`
 * streams, `/api/events` streams), per user
 * and in total: without one, a single tenant opened 30,000 sessions and 20,000 event streams and
 * took the memory and file descriptors every other user needed (issue 14, finding 5).
 */

import { ErrorCode, SwitchboardError } from '../errors.js';

/** What a {@link UserSlots} counts, and how its refusals read. */
export interface UserSlotsOptions {
  /** Most open per user. */
  perUser: number;
  /** Most open in total. */
  total: number;
  /** Plural noun in messages: "sessions", "event streams". */
  noun: string;
  /** Option names in messages, so the administrator knows what to raise. */
  perUserOption: string;
  totalOption: string;
  /** What a refused user can do (freeing a slot). */
  hint: string;
  /** Called with the option name of the cap on each refusal (the gateway counts them on /metrics). */
  onRefused?: (limit: string) => void;
}

/** Counted slots; {@link take} refuses with `LIMIT_EXCEEDED` (HTTP 429) when a cap is reached. */
export class UserSlots {
  readonly #options: UserSlotsOptions;
  readonly #byUser = new Map<string, number>();
  #total = 0;

  constructor(options: UserSlotsOptions) {
    checkCap(options.perUser, options.perUserOption);
    checkCap(options.total, options.totalOption);
    this.#options = options;
  }

  /** Slots taken now, in total. */
  get size(): number {
    return this.#total;
  }

  /** Slots `userId` holds now. */
  countOf(userId: string): number {
    return this.#byUser.get(userId) ?? 0;
  }

  /** Takes a slot for the user; returns its release (idempotent). Throws when a cap is reached. */
  take(user: { id: string; name: string }): () => void {
    const { perUser, total, noun, perUserOption, totalOption, hint } = this.#options;
    const held = this.countOf(user.id);
    if (held >= perUser) {
      this.#options.onRefused?.(perUserOption);
      throw new SwitchboardError(ErrorCode.LimitExceeded, `user "${user.name}" has ${held} open ${noun}, the most allowed per user (${perUserOption})`, {
        hint: `${hint}; the administrator can raise ${perUserOption}`,
        details: { limit: perUserOption, max: perUser },
      });
    }
    if (this.#total >= total) {
      this.#options.onRefused?.(totalOption);
      throw new SwitchboardError(ErrorCode.LimitExceeded, `the gateway has ${this.#total} open ${noun}, its limit (${totalOption})`, {
        hint: `try again later; the administrator can raise ${totalOption}`,
        details: { limit: totalOption, max: total },
      });
    }
    this.#byUser.set(user.id, held + 1);
    this.#total++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#total--;
      const left = this.countOf(user.id) - 1;
      if (left > 0) this.#byUser.set(user.id, left);
      else this.#byUser.delete(user.id);
    };
  }
}

function checkCap(value: number, option: string): void {
  if (!Number.isInteger(value) || value < 1) throw new SwitchboardError(ErrorCode.InvalidArgument, `${option} must be a whole number of at least 1, got ${String(value)}`);
}
