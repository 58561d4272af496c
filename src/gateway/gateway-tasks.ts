/**
 * @module gateway/gateway-tasks
 * The tasks one user started through the gateway: each upstream task (a server and its task id) is
 * known downstream by an id of the gateway's own — 128 random bits, so it cannot be guessed — bound
 * to the user who started it. Another user's id, an expired one and a made-up one are all answered
 * the same way: no such task. Bounded per user; a binding is forgotten when its task's TTL has passed.
 */

import { randomBytes } from 'node:crypto';

/** Most tasks remembered per user (the oldest are forgotten first). */
export const MAX_TASKS_PER_USER = 1_000;
/** How long a binding is kept when the server gave its task no TTL. @default 1 hour */
export const DEFAULT_TASK_BINDING_MS = 3_600_000;

/** One task as the gateway knows it. */
export interface TaskBinding {
  id: string;
  userId: string;
  server: string;
  upstreamTaskId: string;
  expiresAt: number;
}

/** The task bindings of one user. */
export class GatewayTasks {
  readonly #userId: string;
  readonly #bindings = new Map<string, TaskBinding>();
  readonly #now: () => number;

  constructor(userId: string, now: () => number = Date.now) {
    this.#userId = userId;
    this.#now = now;
  }

  /** Binds an upstream task to a new gateway id. */
  bind(server: string, upstreamTaskId: string, ttlMs: number | null): TaskBinding {
    const id = randomBytes(16).toString('base64url');
    const binding = { id, userId: this.#userId, server, upstreamTaskId, expiresAt: this.#now() + (ttlMs ?? DEFAULT_TASK_BINDING_MS) };
    this.#bindings.set(id, binding);
    while (this.#bindings.size > MAX_TASKS_PER_USER) {
      const oldest = this.#bindings.keys().next();
      if (oldest.done === true) break;
      this.#bindings.delete(oldest.value);
    }
    return binding;
  }

  /** The binding of a gateway id, when it is this user's and still kept. */
  lookup(id: unknown, userId: string): TaskBinding | undefined {
    if (typeof id !== 'string' || userId !== this.#userId) return undefined;
    const binding = this.#bindings.get(id);
    if (binding === undefined) return undefined;
    if (binding.expiresAt <= this.#now()) {
      this.#bindings.delete(id);
      return undefined;
    }
    return binding;
  }

  /** This user's bindings, newest first. */
  list(): TaskBinding[] {
    const now = this.#now();
    return [...this.#bindings.values()].filter((binding) => binding.expiresAt > now).reverse();
  }
}
