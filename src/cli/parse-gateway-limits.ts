/**
 * @module cli/parse-gateway-limits
 * `switchboard serve --limit NAME=VALUE`: the gateway's session, stream and connection limits from
 * the command line, by their option names (one repeatable flag rather than ten).
 */

import { usageError } from './cli-error.js';

/** The limits `--limit` may set: options of `startGateway()` (see docs/api.md, Limits). */
export const GATEWAY_LIMIT_NAMES = [
  'maxSessionsPerUser',
  'maxSessions',
  'sessionIdleTtlMs',
  'maxEventStreamsPerUser',
  'maxEventStreams',
  'maxListenStreamsPerUser',
  'maxListenStreams',
  'maxConnections',
  'headersTimeoutMs',
  'requestTimeoutMs',
] as const;

/** A limit's name. */
export type GatewayLimitName = (typeof GATEWAY_LIMIT_NAMES)[number];

/** Parses `NAME=VALUE` pairs; a bad name or value is a usage error saying which and what is allowed. */
export function parseGatewayLimits(pairs: readonly string[]): Partial<Record<GatewayLimitName, number>> {
  const limits: Partial<Record<GatewayLimitName, number>> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    const name = at === -1 ? pair : pair.slice(0, at);
    const known = GATEWAY_LIMIT_NAMES.find((candidate) => candidate === name);
    if (known === undefined) throw usageError(`--limit ${pair}: unknown limit "${name}"; one of ${GATEWAY_LIMIT_NAMES.join(', ')}`);
    const text = at === -1 ? '' : pair.slice(at + 1);
    const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < 1) throw usageError(`--limit ${pair}: the value must be a whole number of at least 1, as in --limit ${name}=100`);
    limits[known] = value;
  }
  return limits;
}
