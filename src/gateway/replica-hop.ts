/**
 * @module gateway/replica-hop
 * The authenticated hop from one replica of a cluster to another (issue 20). Some state lives in one
 * replica's memory — the upstream call behind a 2026-07-28 `input_required` round, an upstream OAuth
 * login waiting for its browser — and the client carries an id naming that replica (see
 * {@link ownerOfState}). A request carrying such state that lands elsewhere is forwarded, as it came,
 * to the owner's URL in the `replicas` heartbeat table, with {@link HOP_HEADER}:
 * `v2.<unix ms>.<nonce>.<replica id>.<HMAC-SHA256>` over the time, the nonce, the id of the replica it is
 * sent to, the method, path and query, the authenticated user's id (empty for the OAuth callback, which
 * has no bearer), and the SHA-256 of the body, keyed by a key of its own derived (HKDF) from the
 * registry's secret key. It is valid for {@link HOP_VALIDITY_MS}, compared in constant time, accepted
 * only by the replica it names and only once: the replica remembers the nonces it accepted until they
 * are too old to verify. A genuine hop for another replica is told apart ({@link HopCheck}): it reached
 * a new replica at the address of one that is gone, and its call or login ends there as interrupted,
 * before anything of its user is looked at. So a hop read off the wire between replicas and sent again
 * is refused by its replica and ends as interrupted at any other.
 *
 * The hop grants little by itself: the owner authenticates the forwarded request as it would any
 * other (the user's bearer token; the login's browser cookie), checks that the token's user is the
 * one the MAC names, and finds the state only among that user's. What a valid hop changes is that the
 * owner does not forward it again, and takes a DPoP-bound token without a proof (the forwarding replica
 * checked it and used it up). So a hop may carry nothing that steers the request elsewhere: a session id
 * is refused, and only the headers a stateless retry or a callback needs are forwarded. A request with
 * a hop header that does not verify is refused (403).
 * When the owner is not among the live replicas, or does not answer, the client gets
 * CALL_INTERRUPTED saying which replica held its call and to start it again — never a hang.
 */

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { ClusterStore } from '../registry/index.js';
import { REPLICA_EXPIRY_MS, REPLICA_FORGET_MS } from './replica-heartbeat.js';

/** The header of a forwarded request. */
export const HOP_HEADER = 'x-switchboard-hop';
/** How long a hop's MAC is accepted after it was made (clock skew between replicas included). @default 30000 */
export const HOP_VALIDITY_MS = 30_000;
/** How long the owner may take to accept the connection and send its headers. @default 10000 */
export const HOP_CONNECT_TIMEOUT_MS = 10_000;
/** The HKDF purpose of the hop key (`ServerRegistry.derivedKey`). */
export const HOP_KEY_PURPOSE = 'replica hop';

/** Request headers a hop carries over (everything the owner's checks and handlers read). */
const FORWARDED_HEADERS = ['authorization', 'content-type', 'accept', 'cookie', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'traceparent', 'tracestate', 'x-request-id', 'user-agent'];
/** Answer headers a hop hands back (hop-by-hop and length headers are the outer server's). */
const RETURNED_HEADERS = ['content-type', 'cache-control', 'set-cookie', 'mcp-session-id', 'www-authenticate', 'content-security-policy', 'x-request-id', 'retry-after'];
const REPLICA_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The replica named at the front of `state` (`<replica id>.<random>`), or undefined (state of an older gateway, or forged). */
export function ownerOfState(state: string): string | undefined {
  const dot = state.indexOf('.');
  const owner = dot < 0 ? undefined : state.slice(0, dot);
  return owner !== undefined && REPLICA_ID.test(owner) ? owner : undefined;
}

/** What a hop signs: the request as the owner sees it. */
export interface HopRequest {
  method: string;
  /** Path and query (`/mcp`, `/oauth/callback?code=…&state=…`). */
  target: string;
  /** The authenticated user's id; '' where the request has no bearer (the OAuth callback). */
  userId: string;
  body: string;
}

const HOP = /^v2\.(\d{1,15})\.([A-Za-z0-9_-]{22})\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/;

/**
 * What {@link ReplicaHop.verify} found: a hop for this replica (accepted, and used up), a genuine hop
 * of this cluster sent to another replica (whose address this one now has), or nothing valid.
 */
export type HopCheck = 'accepted' | 'elsewhere' | 'refused';

/** Why a hop header that did not verify is refused, for the 403 (`what` was refused: a request, a redirect). */
export function hopRefusal(header: string, what = 'request'): string {
  return header.startsWith('v1.')
    ? `this ${what} was forwarded by a replica of an earlier version (its hop header is v1): run one version on every replica of the cluster`
    : `this ${what} carries a replica-to-replica hop header that is not signed by this cluster`;
}

/** The hops of one replica. */
export class ReplicaHop {
  /** This replica's id. */
  readonly replicaId: string;
  readonly #key: Buffer;
  /** Nonces of the hops this replica accepted, with the time each stops verifying anyway (oldest first, roughly). */
  readonly #accepted = new Map<string, number>();
  /** The latest time a hop was checked at: ages are judged against it too, so a clock stepping back cannot bring a forgotten hop back. */
  #latest = 0;
  readonly #cluster: Pick<ClusterStore, 'replicas' | 'now'>;
  readonly #fetch: typeof fetch;

  /** `key`: 32 bytes from `ServerRegistry.derivedKey(HOP_KEY_PURPOSE)`. */
  constructor(replicaId: string, key: Buffer, cluster: Pick<ClusterStore, 'replicas' | 'now'>, fetchImpl: typeof fetch = fetch) {
    this.replicaId = replicaId;
    this.#key = key;
    this.#cluster = cluster;
    this.#fetch = fetchImpl;
  }

  /** True when `state` names another replica than this one. */
  isForeign(state: string): boolean {
    const owner = ownerOfState(state);
    return owner !== undefined && owner !== this.replicaId;
  }

  /** The {@link HOP_HEADER} value for `request` to replica `owner`, made at `now` (the database's clock: replicas' own clocks may differ). */
  sign(request: HopRequest, owner: string, now: number = this.#cluster.now()): string {
    const nonce = randomBytes(16).toString('base64url');
    return `v2.${now}.${nonce}.${owner}.${this.#mac(request, owner, now, nonce)}`;
  }

  /**
   * Whether `header` is a hop of this cluster for exactly `request`, made less than
   * {@link HOP_VALIDITY_MS} ago: `accepted` when it is for this replica and was not accepted before
   * (accepting uses it up), `elsewhere` when it is for another replica, else `refused`.
   */
  verify(header: string, request: HopRequest, now: number = this.#cluster.now()): HopCheck {
    const [, madeText, nonce, target, mac] = HOP.exec(header) ?? [];
    if (madeText === undefined || nonce === undefined || target === undefined || mac === undefined) return 'refused';
    const made = Number(madeText);
    this.#latest = Math.max(this.#latest, now);
    if (Math.abs(now - made) > HOP_VALIDITY_MS || made < this.#latest - HOP_VALIDITY_MS) return 'refused';
    const expected = Buffer.from(this.#mac(request, target, made, nonce));
    const brought = Buffer.from(mac);
    if (brought.length !== expected.length || !timingSafeEqual(brought, expected)) return 'refused';
    if (target !== this.replicaId) return 'elsewhere';
    this.#forgetOld();
    if (this.#accepted.has(nonce)) return 'refused';
    this.#accepted.set(nonce, made + HOP_VALIDITY_MS);
    return 'accepted';
  }

  /** How many accepted hops' nonces this replica holds: those of about the last minute at most (a hop may be stamped up to {@link HOP_VALIDITY_MS} ahead). */
  get remembered(): number {
    return this.#accepted.size;
  }

  /** Drops the nonces of hops too old to verify (see {@link verify}'s age checks); stops at the first one still young (rough time order). */
  #forgetOld(): void {
    for (const [nonce, until] of this.#accepted) {
      if (until >= this.#latest) return;
      this.#accepted.delete(nonce);
    }
  }

  /**
   * Forwards `request` to replica `owner` and returns its answer (streamed). Throws CALL_INTERRUPTED
   * when the owner is not a live replica or cannot be reached; `what` names the thing interrupted
   * ("call", "login") in the message, `hint` says what to do.
   */
  async forward(owner: string, request: Request, hop: HopRequest, what: { noun: string; hint: string }): Promise<Response> {
    const live = await this.#cluster.replicas(REPLICA_EXPIRY_MS, REPLICA_FORGET_MS);
    const url = live.find((replica) => replica.id === owner)?.url;
    if (url === undefined) throw interrupted(owner, what, 'is no longer in the cluster');
    const headers = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    headers.set(HOP_HEADER, this.sign(hop, owner));
    // The client going away ends the hop (and so the owner's exchange); the owner not sending its headers in time fails it.
    const connect = new AbortController();
    const timer = setTimeout(() => connect.abort(new Error(`no answer within ${HOP_CONNECT_TIMEOUT_MS} ms`)), HOP_CONNECT_TIMEOUT_MS);
    let answer: Response;
    try {
      answer = await this.#fetch(new URL(hop.target, url), { method: hop.method, headers, redirect: 'manual', signal: AbortSignal.any([request.signal, connect.signal]), ...(hop.method === 'GET' ? {} : { body: hop.body }) });
    } catch (error) {
      throw interrupted(owner, what, 'does not answer', error);
    } finally {
      clearTimeout(timer);
    }
    const returned = new Headers();
    for (const name of RETURNED_HEADERS) {
      if (name === 'set-cookie') for (const cookie of answer.headers.getSetCookie()) returned.append(name, cookie);
      else {
        const value = answer.headers.get(name);
        if (value !== null) returned.set(name, value);
      }
    }
    return new Response(answer.body, { status: answer.status, headers: returned });
  }

  #mac(request: HopRequest, owner: string, made: number, nonce: string): string {
    const bodyDigest = createHash('sha256').update(request.body).digest('base64url');
    return createHmac('sha256', this.#key).update(`v2\n${made}\n${nonce}\n${owner}\n${request.method.toUpperCase()}\n${request.target}\n${request.userId}\n${bodyDigest}`).digest('base64url');
  }
}

/** CALL_INTERRUPTED for a call or login held by replica `owner`. */
export function interrupted(owner: string, what: { noun: string; hint: string }, why: string, cause?: unknown): SwitchboardError {
  return new SwitchboardError(ErrorCode.CallInterrupted, `this ${what.noun} was interrupted: the gateway replica ${owner} that held it ${why}`, {
    hint: what.hint,
    reason: `replica ${owner} ${why}`,
    details: { replica: owner },
    ...(cause === undefined ? {} : { cause }),
  });
}
