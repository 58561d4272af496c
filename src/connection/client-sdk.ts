/**
 * @module connection/client-sdk
 * Loads the MCP SDK v2 client on first use. Importing it costs ~140 ms and ~20 MiB (it brings zod and
 * every protocol schema), and most processes never need it: stdio servers in legacy mode run on
 * {@link LeanClient} and {@link LeanRequester}. HTTP transports, the 2026-07-28 era, server→client
 * handlers and `leanRequests: false` load it here, once.
 */

type ClientSdk = typeof import('@modelcontextprotocol/client');

let loading: Promise<ClientSdk> | undefined;

/** The SDK client module, imported on the first call. */
export function loadClientSdk(): Promise<ClientSdk> {
  loading ??= import('@modelcontextprotocol/client');
  return loading;
}
