/**
 * @module dashboard/model/is-record
 * The check the dashboard's models use before reading fields of an answer from the API.
 */

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
