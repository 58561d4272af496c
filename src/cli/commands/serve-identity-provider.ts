/**
 * @module cli/commands/serve-identity-provider
 * `switchboard serve --idp-*`: sign-in on the gateway's authorization page through the admin's
 * OpenID provider, from flags. The client secret is never a flag (it would show in `ps` and shell
 * history): `--idp-client-secret-env VAR` names the environment variable that holds it.
 */

import type { IdentityProviderOptions } from '../../gateway/oauth-server/identity-provider.js';
import { usageError } from '../cli-error.js';

/** The `--idp-*` flags as given. */
export interface IdentityProviderFlags {
  issuer?: string;
  clientId?: string;
  clientSecretEnv?: string;
  claim?: string;
  allow: string[];
  createUsers?: boolean;
  label?: string;
}

/** The identity provider the flags configure, or undefined when none is named; a usage error for an incomplete one. */
export function identityProviderFromFlags(flags: IdentityProviderFlags, env: NodeJS.ProcessEnv): IdentityProviderOptions | undefined {
  const { issuer, clientId, clientSecretEnv, claim, allow, createUsers, label } = flags;
  const given = clientId !== undefined || clientSecretEnv !== undefined || claim !== undefined || allow.length > 0 || createUsers === true || label !== undefined;
  if (issuer === undefined) {
    if (given) throw usageError('the --idp-* flags need --idp-issuer URL (the OpenID provider to sign in through)');
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(issuer);
  } catch {
    throw usageError(`--idp-issuer "${issuer}" is not a URL (e.g. https://accounts.example.com)`);
  }
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && local)) throw usageError(`--idp-issuer "${issuer}" must be https (plain http only on this machine)`);
  if (clientId === undefined || clientId === '') throw usageError('--idp-issuer needs --idp-client-id (the gateway\'s client id at the provider)');
  if (allow.length === 0) throw usageError('--idp-issuer needs --idp-allow (repeatable: a user name, or @example.com for a domain): nobody could sign in otherwise');
  let clientSecret: string | undefined;
  if (clientSecretEnv !== undefined) {
    clientSecret = env[clientSecretEnv];
    if (clientSecret === undefined || clientSecret === '') throw usageError(`--idp-client-secret-env names ${clientSecretEnv}, which is not set (export the client secret in it)`);
  }
  return {
    issuer: parsed.href.replace(/\/+$/, ''),
    clientId,
    allow,
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(claim === undefined ? {} : { claim }),
    ...(createUsers === true ? { createUsers: true } : {}),
    ...(label === undefined ? {} : { label }),
  };
}
