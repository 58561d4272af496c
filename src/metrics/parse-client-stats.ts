/**
 * @module metrics/parse-client-stats
 * Reads back a `client.stats()` another process serialized (a gateway replica's snapshot, issue 20),
 * checking the shape the merge relies on.
 */

import type { ClientStats } from './stats-types.js';

/** The statistics in `text`, or undefined when it is not JSON of a `ClientStats`. */
export function parseClientStats(text: string): ClientStats | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || typeof value.since !== 'number' || !isObject(value.refused) || !Array.isArray(value.servers)) return undefined;
  for (const server of value.servers) {
    if (!isObject(server) || typeof server.server !== 'string' || typeof server.calls !== 'number' || !Array.isArray(server.tools) || !isObject(server.latency) || !Array.isArray(server.timeline)) return undefined;
  }
  // The shape the merge reads is checked above; the rest is this program's own serialization.
  return value as unknown as ClientStats;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
