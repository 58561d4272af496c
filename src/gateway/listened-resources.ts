/**
 * @module gateway/listened-resources
 * The resources a 2026-07-28 `subscriptions/listen` request asks to hear of. The SDK serves the
 * stream, but only the gateway can subscribe the upstreams that own them. Read from the body the
 * route parsed (served by Node); a request served in process has none, and subscribes nothing upstream.
 */

/** Most resources one listen stream may ask for (each is an upstream subscription). */
export const MAX_LISTENED_RESOURCES = 100;

/** The URIs in `resourceSubscriptions` of a `subscriptions/listen` request body; none for any other body. */
export function listenedResources(body: unknown): string[] {
  if (!isRecord(body) || body.method !== 'subscriptions/listen' || !isRecord(body.params) || !isRecord(body.params.notifications)) return [];
  const uris = body.params.notifications.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
