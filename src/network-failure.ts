/**
 * @module network-failure
 * Why a request never reached a server, from whatever the HTTP stack threw: Node's network error code
 * (`ECONNREFUSED`, `ENOTFOUND`, …) and the address it tried, anywhere in the cause chain (the SDK keeps
 * it in `data.cause`); when fetch gives no code at all (it refuses some ports: "bad port"), the
 * innermost message under its "fetch failed"; and from the text of a legacy SSE error, which keeps
 * only a message ("SSE error: TypeError: fetch failed: connect ECONNREFUSED 127.0.0.1:8080"). Only
 * `toSwitchboardError` reads messages, through this.
 */

/** What is known about a failure to reach a server. */
export interface NetworkFailure {
  /** Node's code, e.g. `ECONNREFUSED`; absent when fetch gave none. */
  code?: string;
  /** The code, or fetch's own reason (`bad port`). */
  reason: string;
  /** What was tried, when known: `host:port` (or the host name that did not resolve). */
  address?: string;
}

/** Node network codes; not the SDK's own codes (`ERA_NEGOTIATION_FAILED`), which also start with E. */
const NETWORK_CODE = /^(?:E[A-Z]+|EAI_[A-Z]+)$/;
/** Undici's wording, as it appears inside an SSE error's message. */
const FETCH_FAILED_TEXT = /fetch failed: (?:(?:connect|getaddrinfo) )?(?:(E[A-Z]+|EAI_[A-Z]+)(?: (\S+))?|(.+))$/;
const MAX_DEPTH = 6;

/** The network failure behind `error`, or undefined when it is not one. */
export function networkFailureOf(error: unknown): NetworkFailure | undefined {
  const chain = causeChain(error);
  for (const link of chain) {
    const code = (link as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODE.test(code)) {
      const address = addressOf(link);
      return { code, reason: code, ...(address === undefined ? {} : { address }) };
    }
  }
  for (const link of chain) {
    if (link instanceof TypeError && link.message === 'fetch failed') {
      const inner = innermostMessage(link);
      return { reason: inner === 'fetch failed' ? 'the request failed before reaching the server' : inner };
    }
  }
  return undefined;
}

/**
 * The network failure described in the message of a legacy SSE transport's error, which keeps no
 * cause. Only for that transport's own errors: a server's error message may say anything.
 */
export function networkFailureInSseMessage(message: string): NetworkFailure | undefined {
  const text = FETCH_FAILED_TEXT.exec(message);
  if (text === null) return undefined;
  const [, code, address, other] = text;
  if (code !== undefined) return { code, reason: code, ...(address === undefined ? {} : { address }) };
  return other === undefined ? undefined : { reason: other };
}

/** What to do about it. */
export function networkFailureHint(failure: NetworkFailure): string {
  if (failure.code === 'ECONNREFUSED') return `nothing is listening on ${failure.address ?? 'that address'}; is the server running?`;
  if (failure.code === undefined) return 'check the URL and that the server is running';
  return 'check the URL and the network';
}

/** The error, its causes (also the SDK's `data.cause`) and an AggregateError's errors, nearest first. */
function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && chain.length < MAX_DEPTH * 2) {
    const current = queue.shift();
    if (typeof current !== 'object' || current === null || chain.includes(current)) continue;
    chain.push(current);
    const data = (current as { data?: unknown }).data;
    queue.push((current as { cause?: unknown }).cause, typeof data === 'object' && data !== null ? (data as { cause?: unknown }).cause : undefined);
    if (current instanceof AggregateError) queue.push(...current.errors);
  }
  return chain;
}

function addressOf(error: object): string | undefined {
  const { address, port } = error as { address?: unknown; port?: unknown };
  if (typeof address === 'string' && typeof port === 'number') return `${address.includes(':') ? `[${address}]` : address}:${port}`;
  const nested = error instanceof AggregateError ? error.errors.find((inner: unknown) => typeof inner === 'object' && inner !== null && addressOf(inner) !== undefined) : undefined;
  return typeof nested === 'object' && nested !== null ? addressOf(nested) : undefined;
}

/** The message of the innermost cause ("fetch failed" says nothing; its cause says why). */
export function innermostMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error && current.cause instanceof Error; depth++) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}
