/**
 * @module cli/idp-flags
 * The `serve --idp-*` flags as cac parsed them, into {@link IdentityProviderFlags} (checked later by
 * `identityProviderFromFlags`, where a usage error reaches the user as one).
 */

import type { IdentityProviderFlags } from './commands/serve-identity-provider.js';

/** The `--idp-*` values of `serve`'s flags. */
export interface IdpFlagValues {
  idpIssuer?: unknown;
  idpClientId?: unknown;
  idpClientSecretEnv?: unknown;
  idpClaim?: unknown;
  idpAllow?: unknown;
  idpCreateUsers?: boolean;
  idpLabel?: unknown;
}

/** The flags, strings and lists as given. */
export function identityProviderFlagsOf(flags: IdpFlagValues): IdentityProviderFlags {
  const text = (value: unknown): string | undefined => (value === undefined ? undefined : String(value));
  const allow = flags.idpAllow === undefined ? [] : (Array.isArray(flags.idpAllow) ? flags.idpAllow : [flags.idpAllow]).map(String);
  const issuer = text(flags.idpIssuer);
  const clientId = text(flags.idpClientId);
  const clientSecretEnv = text(flags.idpClientSecretEnv);
  const claim = text(flags.idpClaim);
  const label = text(flags.idpLabel);
  return {
    allow,
    ...(issuer === undefined ? {} : { issuer }),
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecretEnv === undefined ? {} : { clientSecretEnv }),
    ...(claim === undefined ? {} : { claim }),
    ...(flags.idpCreateUsers === true ? { createUsers: true } : {}),
    ...(label === undefined ? {} : { label }),
  };
}
