/**
 * @module config/secret-fields
 * The one list of the secret-bearing fields of a server entry. Masking (what the API and the CLI
 * show), sealing (what the registry encrypts at rest), restoring masked values on update and the
 * redaction of OAuth secrets all walk this list, so a field added here is handled everywhere, and a
 * secret field missing here is caught by `secret-fields.test.ts`, which walks the config schema.
 */

import type { FieldPath } from './field-path.js';

/**
 * How a field holds its secret:
 * - `value`: the string is the secret;
 * - `values`: every value of the record is secret (header values, environment values), keys are not;
 * - `url`: a URL whose password and credential-looking query values are secret (only when it has any);
 * - `parameters`: the template parameters that the instance's template marks `secret`.
 */
export type SecretFieldKind = 'value' | 'values' | 'url' | 'parameters';

/** One secret-bearing field of a server entry. */
export interface SecretField {
  path: FieldPath;
  kind: SecretFieldKind;
}

/** Every secret-bearing field of a server entry (and of a template instance: `parameters`). */
export const SECRET_FIELDS: readonly SecretField[] = Object.freeze([
  { path: ['apiKey'], kind: 'value' },
  { path: ['headers'], kind: 'values' },
  { path: ['env'], kind: 'values' },
  { path: ['url'], kind: 'url' },
  { path: ['path'], kind: 'url' },
  { path: ['oauth', 'clientSecret'], kind: 'value' },
  { path: ['oauth', 'privateKey'], kind: 'value' },
  { path: ['oauth', 'assertion'], kind: 'value' },
  { path: ['oauth', 'idp', 'clientSecret'], kind: 'value' },
  { path: ['oauth', 'idp', 'idToken'], kind: 'value' },
  { path: ['parameters'], kind: 'parameters' },
] satisfies SecretField[]);

/**
 * Fields whose names look secret-bearing but are not, and why (the schema-walking test accepts these
 * and nothing else).
 */
export const NOT_SECRET_FIELDS: Readonly<Record<string, string>> = Object.freeze({
  apiKeyEnv: 'the name of the environment variable that receives apiKey, not a value',
  'oauth.privateKeyFile': 'a path on the gateway host (refused for tenants, see local-path-fields.ts); the key itself goes in oauth.privateKey',
  'oauth.idp.tokenEndpoint': "the identity provider's token endpoint URL, not a token",
  'oauth.assertionFile': 'a path on the gateway host (refused for tenants, see local-path-fields.ts); the JWT itself goes in oauth.assertion',
});
