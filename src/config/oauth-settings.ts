/**
 * @module config/oauth-settings
 * How a remote server's OAuth client is configured (`oauth:` in a server entry), normalized. Secrets
 * (`clientSecret`, `privateKey`, `assertion`, `idp.clientSecret`, `idp.idToken`, listed in `secret-fields.ts`) come
 * from `${VAR}` or, in the registry, are stored encrypted; they are never echoed in errors or logs.
 */

import { valueAtPath } from './field-path.js';
import { SECRET_FIELDS } from './secret-fields.js';

/**
 * The OAuth grant used to obtain tokens:
 * - `authorization_code`: a person logs in through a browser (PKCE S256), `switchboard login`.
 * - `client_credentials`: machine to machine, with `clientSecret` (`client_secret_basic`/`_post`) or a
 *   private key (`private_key_jwt`).
 * - `jwt-bearer` (RFC 7523) with `idp`: enterprise-managed authorization (SEP-990): an identity
 *   provider's ID token is exchanged for an ID-JAG, which is presented to the server's authorization server.
 * - `jwt-bearer` with `assertion` or `assertionFile`: workload identity federation (SEP-1933): a JWT the
 *   platform issues to the workload (a Kubernetes projected service account token, a CI job's OIDC
 *   token) is presented as is.
 */
export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt-bearer';

/** The grant names accepted in a config file. */
export const OAUTH_GRANTS: readonly OAuthGrant[] = ['authorization_code', 'client_credentials', 'jwt-bearer'];

/** Signing algorithms accepted for `private_key_jwt`. @default 'RS256' */
export const OAUTH_SIGNING_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512'] as const;

/** The identity provider of the `jwt-bearer` grant (enterprise-managed authorization, SEP-990). */
export interface OAuthIdentityProviderSettings {
  /** The IdP's token endpoint; discovered from `url` when absent. */
  tokenEndpoint?: string;
  /** The IdP's issuer URL, for discovery of its token endpoint. */
  url?: string;
  /** This client's id at the IdP. */
  clientId: string;
  /** This client's secret at the IdP (absent for a public client). Secret. */
  clientSecret?: string;
  /** The user's ID token from the IdP. Secret. */
  idToken: string;
}

/** A server's OAuth client settings, normalized. */
export interface OAuthSettings {
  /**
   * The grant. When absent: `authorization_code`, unless a client secret or private key is configured and
   * the authorization server offers `client_credentials` but not `authorization_code`.
   */
  grant?: OAuthGrant;
  /** A pre-registered client id. Without it, a client ID metadata document or dynamic registration is used. */
  clientId?: string;
  /** The pre-registered client's secret. Secret. */
  clientSecret?: string;
  /** An `https:` URL where this client's metadata document is published (a URL client id, SEP-991). */
  clientMetadataUrl?: string;
  /** The name shown on consent screens. @default 'mcp-switchboard' */
  clientName?: string;
  /** Scopes to ask for besides the ones the server names. */
  scopes?: string[];
  /** A PEM private key (PKCS#8) for `private_key_jwt`. Secret. */
  privateKey?: string;
  /** An absolute path to a PEM private key file for `private_key_jwt`. */
  privateKeyFile?: string;
  /** The JWS algorithm of `private_key_jwt` assertions. @default 'RS256' */
  signingAlgorithm: string;
  /** A fixed loopback port for the login redirect (pre-registered clients need a fixed redirect URI). */
  redirectPort?: number;
  /** The identity provider of the `jwt-bearer` grant. */
  idp?: OAuthIdentityProviderSettings;
  /** The workload's JWT for the `jwt-bearer` grant (workload identity federation). Secret. */
  assertion?: string;
  /** An absolute path to a file holding the workload's JWT; read at every token request (platforms rotate it). */
  assertionFile?: string;
}

/** Every secret value of OAuth settings, for redaction: the `oauth.…` fields of {@link SECRET_FIELDS}. */
export function oauthSecretValues(settings: OAuthSettings | undefined): string[] {
  if (settings === undefined) return [];
  return SECRET_FIELDS.filter((field) => field.path[0] === 'oauth')
    .map((field) => valueAtPath(settings, field.path.slice(1)))
    .filter((value): value is string => typeof value === 'string' && value.length >= 4);
}
