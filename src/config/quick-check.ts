/**
 * @module config/quick-check
 * Vouches for config objects of the common shapes without zod (which costs ~14 MiB and ~100 ms to
 * load): plain strings, booleans, string lists and maps, the transport names, the patterns of
 * `apiKeyEnv` and `prefix`. It is never more lenient than the schema: anything it does not know for
 * sure (policies, `oauth`, unknown keys, any doubt) is left to the zod schema, which then decides and
 * writes the messages.
 */

import { TRANSPORT_NAMES } from './schema.js';

const API_KEY_ENV = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PREFIX = /^[A-Za-z0-9_-]{1,32}$/;
const TRANSPORTS: ReadonlySet<unknown> = new Set(TRANSPORT_NAMES);

/** True when the schema would certainly accept this server entry as it is. */
export function isPlainServerEntry(entry: unknown): boolean {
  if (!isObject(entry)) return false;
  for (const key in entry) {
    if (!Object.hasOwn(entry, key)) continue;
    const value = entry[key];
    switch (key) {
      case 'path':
      case 'command':
      case 'cwd':
      case 'url':
      case 'apiKey':
      case 'protocol':
      case 'description':
        if (typeof value !== 'string') return false;
        break;
      case 'enabled':
      case 'disabled':
        if (typeof value !== 'boolean') return false;
        break;
      case 'timeout':
      case 'callTimeout':
        if (typeof value !== 'number' && typeof value !== 'string') return false;
        break;
      case 'args':
        if (!Array.isArray(value) || !value.every(isScalar)) return false;
        break;
      case 'include':
      case 'exclude':
      case 'inheritEnv':
        if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return false;
        break;
      case 'env':
        if (!isObject(value) || !Object.values(value).every(isScalar)) return false;
        break;
      case 'headers':
        if (!isObject(value) || !Object.values(value).every((item) => typeof item === 'string')) return false;
        break;
      case 'transport':
      case 'type':
        if (!TRANSPORTS.has(value)) return false;
        break;
      case 'apiKeyEnv':
        if (typeof value !== 'string' || !API_KEY_ENV.test(value)) return false;
        break;
      case 'prefix':
        if (typeof value !== 'string' || !PREFIX.test(value)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True when the schema would certainly accept these top-level options. */
export function isPlainTopLevel(top: Record<string, unknown>): boolean {
  for (const key in top) {
    if (!Object.hasOwn(top, key)) continue;
    const value = top[key];
    switch (key) {
      case 'mcpServers':
      case 'servers':
        if (!isObject(value)) return false;
        break;
      case 'naming':
        if (value !== 'on-conflict' && value !== 'prefix' && value !== 'none') return false;
        break;
      case 'onServerError':
        if (value !== 'skip' && value !== 'throw') return false;
        break;
      case 'maxConcurrentStarts':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1000) return false;
        break;
      case '$schema':
      case 'inputs':
        break;
      default:
        return false;
    }
  }
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}
