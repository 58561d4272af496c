/**
 * @module gateway/call-conversations
 * Tool calls of 2026-07-28 clients whose upstream server asks a question midway (`elicitation/create`,
 * `sampling/createMessage`). That revision has no server-to-client request during a call; it has
 * multi round-trip requests instead. So the gateway answers the client's `tools/call` with
 * `input_required` carrying the upstream's question, keeps the upstream call waiting, and resumes it
 * when the client calls again with its answer and the `requestState` it was given.
 *
 * A conversation is found by that state: a random id, bound to its user, after the id of the replica
 * holding it (a retry landing on another replica is forwarded there, see replica-hop). Nothing else
 * rides in it, so a forged or replayed state finds nothing (or a conversation of the same user, which then gets
 * answers it was waiting for anyway). A conversation nobody resumes within its deadline is dropped
 * and its upstream call cancelled.
 */

import { randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { ToolResult } from '../result/tool-result.js';
import { ErrorCode, SwitchboardError } from '../errors.js';
import { isRecord } from './wire-format.js';

/** How long a conversation waits for the client to come back with its answers. @default 300000 */
export const DEFAULT_CONVERSATION_TIMEOUT_MS = 300_000;

/** A question of the upstream, as the client gets it in `inputRequests`. */
export interface Question {
  key: string;
  method: 'elicitation/create' | 'sampling/createMessage';
  params: Record<string, unknown>;
}

interface Asked extends Question {
  answer(value: Record<string, unknown>): void;
  fail(error: unknown): void;
}

/** What a conversation does next: it ended, or the upstream asked. */
export type ConversationStep = { kind: 'done'; result: ToolResult } | { kind: 'failed'; error: unknown } | { kind: 'ask'; questions: Question[] };

/** One upstream call of a 2026-07-28 client, across the client's rounds. */
export class Conversation {
  /** `<owner replica id>.<random>` in a cluster (the owner only routes; the random part finds it), else random. */
  readonly id: string;
  /** Cancels the upstream call. */
  readonly abort = new AbortController();
  readonly #queue: Asked[] = [];
  readonly #asked = new Map<string, Asked>();
  #outcome: ConversationStep | undefined;
  #wake: (() => void) | undefined;
  #nextKey = 0;

  constructor(
    readonly userId: string,
    idPrefix = '',
  ) {
    this.id = `${idPrefix}${randomBytes(18).toString('base64url')}`;
  }

  /** The signal the upstream call runs under (the gateway aborts it at shutdown). */
  callSignal: AbortSignal | undefined;

  /** Runs the upstream call (under `signal`); `end` runs once it settles. */
  run(call: Promise<ToolResult>, signal: AbortSignal, end: () => void): void {
    this.callSignal = signal;
    call.then(
      (result) => this.#settle({ kind: 'done', result }),
      (error: unknown) => this.#settle({ kind: 'failed', error }),
    ).finally(end);
  }

  /** The upstream's question; resolves with the client's answer when it comes back. */
  ask(method: Question['method'], params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const asked: Asked = { key: `q${++this.#nextKey}`, method, params, answer: resolve, fail: reject };
      if (signal.aborted) reject(signal.reason);
      else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      this.#queue.push(asked);
      this.#wake?.();
    });
  }

  /** Waits until the call ends or asks something the client has not been asked yet. */
  async next(): Promise<ConversationStep> {
    for (;;) {
      if (this.#outcome !== undefined) return this.#outcome;
      if (this.#queue.length > 0) {
        const questions = this.#queue.splice(0);
        for (const question of questions) this.#asked.set(question.key, question);
        return { kind: 'ask', questions: questions.map(({ key, method, params }) => ({ key, method, params })) };
      }
      await new Promise<void>((resolve) => (this.#wake = resolve));
      this.#wake = undefined;
    }
  }

  /**
   * Hands the client's answers to the questions it was asked. An unanswered elicitation counts as
   * cancelled by the person; an unanswered sampling request fails (there is no neutral answer).
   */
  answer(responses: Readonly<Record<string, unknown>> | undefined): void {
    for (const [key, asked] of this.#asked) {
      const response = responses?.[key];
      if (isRecord(response)) asked.answer({ ...response });
      else if (asked.method === 'elicitation/create') asked.answer({ action: 'cancel' });
      else asked.fail(new ProtocolError(ProtocolErrorCode.InvalidRequest, 'the client did not answer the sampling request'));
    }
    this.#asked.clear();
  }

  #settle(outcome: ConversationStep): void {
    this.#outcome ??= outcome;
    // Questions left unanswered when the call ends (it was cancelled) go nowhere.
    for (const asked of [...this.#queue.splice(0), ...this.#asked.values()]) asked.fail(new SwitchboardError(ErrorCode.RequestCancelled, 'the call ended'));
    this.#asked.clear();
    this.#wake?.();
  }
}

/** The conversations of one user's endpoint waiting for their client to come back. */
export class CallConversations {
  readonly #parked = new Map<string, { conversation: Conversation; timer: NodeJS.Timeout }>();
  readonly #timeoutMs: number;
  /** What the ids of conversations here start with: this replica's id and a dot (empty outside a cluster). */
  readonly idPrefix: string;

  constructor(timeoutMs = DEFAULT_CONVERSATION_TIMEOUT_MS, owner?: string) {
    this.#timeoutMs = timeoutMs;
    this.idPrefix = owner === undefined ? '' : `${owner}.`;
  }

  /** Keeps `conversation` until its client comes back (or cancels its call after the deadline). */
  park(conversation: Conversation): void {
    const timer = setTimeout(() => {
      this.#parked.delete(conversation.id);
      conversation.abort.abort(new SwitchboardError(ErrorCode.RequestCancelled, `the client did not come back with its answers within ${this.#timeoutMs / 1000} s`));
    }, this.#timeoutMs);
    timer.unref();
    this.#parked.set(conversation.id, { conversation, timer });
  }

  /** The parked conversation of `userId` that `state` names (taken out: one round at a time). */
  take(state: string, userId: string): Conversation | undefined {
    const parked = this.#parked.get(state);
    if (parked === undefined || parked.conversation.userId !== userId) return undefined;
    clearTimeout(parked.timer);
    this.#parked.delete(state);
    return parked.conversation;
  }

  /** Conversations waiting for their client now. */
  get size(): number {
    return this.#parked.size;
  }

  /** Cancels every parked conversation's upstream call. */
  close(): void {
    for (const { conversation, timer } of this.#parked.values()) {
      clearTimeout(timer);
      conversation.abort.abort(new SwitchboardError(ErrorCode.RequestCancelled, 'the gateway is closing this connection'));
    }
    this.#parked.clear();
  }
}
