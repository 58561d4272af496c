/**
 * @module auth/oauth-defaults
 * Defaults of the OAuth layer, in a module of their own so the package index can export them
 * without loading the SDK's OAuth client.
 */

/** Authorizations (grant, refresh or step-up) one request may trigger before it fails. @default 3 */
export const DEFAULT_MAX_AUTHORIZATIONS_PER_REQUEST = 3;

/** Tokens are renewed this long before they expire (at most a tenth of their lifetime). @default 60000 */
export const DEFAULT_REFRESH_BEFORE_EXPIRY_MS = 60_000;
