/**
 * @module config/normalize-policies
 * The policy fields of a server entry (retry, restart, healthCheck, cache), its durations and its
 * protocol mode, normalized to milliseconds and typed values; problems go into the issue list.
 */

import type { ConfigIssue } from '../errors.js';
import { parseDuration } from './duration.js';
import type { ServerEntry } from './schema.js';
import {
  DEFAULT_CACHE_MAX_ENTRIES,
  DEFAULT_CACHE_TTL_MS,
  DEFAULT_HEALTH_CHECK_POLICY,
  DEFAULT_RESTART_POLICY,
  DEFAULT_RETRY_POLICY,
  type ProtocolMode,
  type ServerSpec,
} from './server-spec.js';

const PROTOCOL_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** retry, restart, healthCheck and cache, with durations in ms; only the fields that were given. */
export function policyFields(entry: ServerEntry, path: string, errors: ConfigIssue[]): Partial<Pick<ServerSpec, 'retry' | 'restart' | 'healthCheck' | 'cache'>> {
  const result: Partial<Pick<ServerSpec, 'retry' | 'restart' | 'healthCheck' | 'cache'>> = {};
  const ms = (value: number | string | undefined, field: string, fallback: number): number => durationField(value, `${path}.${field}`, fallback, errors);
  if (entry.retry !== undefined) {
    result.retry =
      entry.retry === false
        ? false
        : {
            attempts: entry.retry.attempts ?? DEFAULT_RETRY_POLICY.attempts,
            backoffMs: ms(entry.retry.backoff, 'retry.backoff', DEFAULT_RETRY_POLICY.backoffMs),
            maxBackoffMs: ms(entry.retry.maxBackoff, 'retry.maxBackoff', DEFAULT_RETRY_POLICY.maxBackoffMs),
            onTimeout: entry.retry.onTimeout ?? DEFAULT_RETRY_POLICY.onTimeout,
          };
  }
  if (entry.restart !== undefined) {
    result.restart =
      entry.restart === false
        ? false
        : {
            attempts: entry.restart.attempts ?? DEFAULT_RESTART_POLICY.attempts,
            delayMs: ms(entry.restart.delay, 'restart.delay', DEFAULT_RESTART_POLICY.delayMs),
            maxDelayMs: ms(entry.restart.maxDelay, 'restart.maxDelay', DEFAULT_RESTART_POLICY.maxDelayMs),
            probeIntervalMs: ms(entry.restart.probeInterval, 'restart.probeInterval', DEFAULT_RESTART_POLICY.probeIntervalMs),
          };
  }
  if (entry.healthCheck !== undefined) {
    result.healthCheck =
      entry.healthCheck === false
        ? false
        : {
            intervalMs: ms(entry.healthCheck.interval, 'healthCheck.interval', DEFAULT_HEALTH_CHECK_POLICY.intervalMs),
            timeoutMs: ms(entry.healthCheck.timeout, 'healthCheck.timeout', DEFAULT_HEALTH_CHECK_POLICY.timeoutMs),
            misses: entry.healthCheck.misses ?? DEFAULT_HEALTH_CHECK_POLICY.misses,
          };
  }
  if (entry.cache !== undefined && entry.cache !== false) {
    const cache = entry.cache === true ? {} : entry.cache;
    result.cache = {
      ttlMs: ms(cache.ttl, 'cache.ttl', DEFAULT_CACHE_TTL_MS),
      maxEntries: cache.maxEntries ?? DEFAULT_CACHE_MAX_ENTRIES,
      // `readOnly: true` alone caches read-only tools only; otherwise every tool unless `tools` narrows it.
      ...(cache.tools === undefined ? (cache.readOnly === true ? { tools: [] } : {}) : { tools: cache.tools }),
      readOnly: cache.readOnly ?? false,
    };
  }
  return result;
}

/** `protocol:` as a {@link ProtocolMode}. */
export function protocolField(value: string | undefined, path: string, errors: ConfigIssue[]): ProtocolMode | undefined {
  if (value === undefined) return undefined;
  if (value === 'legacy' || value === 'auto') return value;
  if (PROTOCOL_VERSION.test(value)) return { pin: value };
  errors.push({ path, message: `"${value}" is not a protocol mode`, hint: 'use `legacy`, `auto` or a revision such as `2026-07-28`' });
  return undefined;
}

/** A duration in ms; `fallback` when absent or invalid (the problem is pushed). */
export function durationField(value: number | string | undefined, path: string, fallback: number, errors: ConfigIssue[]): number {
  if (value === undefined) return fallback;
  const parsed = parseDuration(value);
  if ('error' in parsed) {
    errors.push({ path, message: parsed.error });
    return fallback;
  }
  if (parsed.ms === 0) {
    errors.push({ path, message: 'must be greater than zero' });
    return fallback;
  }
  return parsed.ms;
}

