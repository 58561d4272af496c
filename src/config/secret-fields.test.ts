import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { schemaFields, wordsOf } from '../../test/helpers/schema-fields.js';
import { dottedPath } from './field-path.js';
import { createConfigSchemas } from './schema.js';
import { NOT_SECRET_FIELDS, SECRET_FIELDS } from './secret-fields.js';

/** Words that, in a field's name, suggest it holds a credential. */
const SECRET_WORDS = new Set(['secret', 'secrets', 'key', 'keys', 'token', 'tokens', 'password', 'passwd', 'pass', 'passphrase', 'credential', 'credentials', 'auth', 'authorization', 'cookie', 'cookies', 'bearer', 'private', 'signature', 'session', 'cert', 'certificate', 'jwt', 'assertion', 'pin']);
const looksSecret = (field: string): boolean => wordsOf(field).some((word) => SECRET_WORDS.has(word));

const { serverEntrySchema } = createConfigSchemas(z);
const listed = new Set(SECRET_FIELDS.map((field) => dottedPath(field.path)));

describe('SECRET_FIELDS, the one list of secret-bearing fields of a server entry', () => {
  test('every field of the config schema whose name looks secret-bearing is listed (or explained in NOT_SECRET_FIELDS)', () => {
    const fields = schemaFields(serverEntrySchema);
    expect(fields.length).toBeGreaterThan(30);
    const unlisted = fields.filter((field) => looksSecret(field) && !listed.has(field) && NOT_SECRET_FIELDS[field] === undefined);
    expect(unlisted, 'add these to SECRET_FIELDS (masked, encrypted at rest), or to NOT_SECRET_FIELDS with the reason').toEqual([]);
  });

  test('every listed field exists: in the entry schema, or as a template instance\'s parameters', () => {
    const fields = new Set([...schemaFields(serverEntrySchema), 'parameters']);
    expect([...listed].filter((field) => !fields.has(field))).toEqual([]);
    expect(Object.keys(NOT_SECRET_FIELDS).filter((field) => !fields.has(field))).toEqual([]);
  });

  test('the name test sees through camelCase', () => {
    expect(['oauth.clientSecret', 'apiKey', 'oauth.idp.idToken', 'x.sessionCookie'].every(looksSecret)).toBe(true);
    expect(['description', 'oauth', 'oauth.redirectPort', 'cache.maxEntries'].some(looksSecret)).toBe(false);
  });

  test('the list holds the known secrets, including the OAuth client secret and private key', () => {
    expect([...listed]).toEqual(expect.arrayContaining(['apiKey', 'headers', 'env', 'url', 'path', 'oauth.clientSecret', 'oauth.privateKey', 'oauth.idp.clientSecret', 'oauth.idp.idToken']));
  });
});
