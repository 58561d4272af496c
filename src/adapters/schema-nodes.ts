/**
 * @module adapters/schema-nodes
 * Small helpers over JSON Schema nodes shared by the provider-schema conversion and its strict mode:
 * the marker of a node whose content was cut, and plain record utilities.
 */

/** Keywords that only describe a value (they constrain nothing). */
export const ANNOTATION_KEYWORDS = new Set(['title', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

// Marks a node whose content was cut (recursion, unresolved ref): strict mode cannot describe it. A
// symbol survives object spreads and never reaches JSON; `withoutMarkers` removes it from the result.
export const UNCONSTRAINED = Symbol('unconstrained');

export function isUnconstrained(node: object): boolean {
  return (node as Record<symbol, unknown>)[UNCONSTRAINED] === true;
}

export function withoutMarkers(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutMarkers);
  if (!isRecord(node)) return node;
  return mapValues(node, withoutMarkers);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function mapValues(record: Record<string, unknown>, map: (value: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) out[key] = map(value);
  return out;
}

export function joinDescriptions(...parts: unknown[]): string {
  return parts.filter((part): part is string => typeof part === 'string' && part !== '').join(' ');
}

export function sameJson(left: unknown, right: unknown): boolean {
  return JSON.stringify(left) === JSON.stringify(right);
}
