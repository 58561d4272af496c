/**
 * @module connection/client-capabilities
 * The capabilities a connection declares to its server, from what the host supplied: elicitation
 * (form mode, and URL mode when the host shows URLs), sampling and roots only with their handlers,
 * and the extensions the host renders (e.g. MCP Apps, `io.modelcontextprotocol/ui`).
 */

/** What of the connection's options decides its capabilities. */
export interface CapabilityOptions {
  onElicitation?: unknown;
  /** The host shows URL-mode elicitations (`mode: "url"`) to its user. */
  urlElicitation?: boolean;
  onSampling?: unknown;
  roots?: unknown;
  extensions?: Record<string, Record<string, unknown>>;
}

/** The `capabilities` of the `initialize` request (or of a 2026-07-28 request's envelope). */
export function clientCapabilities(options: CapabilityOptions): Record<string, Record<string, unknown>> {
  const capabilities: Record<string, Record<string, unknown>> = {};
  if (options.onElicitation !== undefined) {
    capabilities.elicitation = { form: { applyDefaults: true }, ...(options.urlElicitation === true ? { url: {} } : {}) };
  }
  if (options.onSampling !== undefined) capabilities.sampling = {};
  if (options.roots !== undefined) capabilities.roots = { listChanged: true };
  if (options.extensions !== undefined && Object.keys(options.extensions).length > 0) capabilities.extensions = { ...options.extensions };
  return capabilities;
}
