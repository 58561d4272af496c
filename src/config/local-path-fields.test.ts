import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { schemaFields, wordsOf } from '../../test/helpers/schema-fields.js';
import { dottedPath } from './field-path.js';
import { LOCAL_PATH_FIELDS, NOT_LOCAL_PATH_FIELDS } from './local-path-fields.js';
import { createConfigSchemas } from './schema.js';

/** Words that, in a field's name, suggest it names a file, a folder or a command. */
const PATH_WORDS = new Set(['path', 'paths', 'file', 'files', 'dir', 'directory', 'folder', 'cwd', 'command', 'cmd', 'exec', 'executable', 'bin', 'binary', 'script', 'socket', 'store', 'cert', 'certificate', 'root', 'home']);
const looksLikePath = (field: string): boolean => wordsOf(field).some((word) => PATH_WORDS.has(word));

const { serverEntrySchema } = createConfigSchemas(z);
const listed = new Set(LOCAL_PATH_FIELDS.map((field) => dottedPath(field.path)));

describe('LOCAL_PATH_FIELDS, the fields that name something on the gateway host', () => {
  test('every field of the config schema whose name looks like a path or a command is listed (or explained)', () => {
    const unlisted = schemaFields(serverEntrySchema).filter((field) => looksLikePath(field) && !listed.has(field) && NOT_LOCAL_PATH_FIELDS[field] === undefined);
    expect(unlisted, 'add these to LOCAL_PATH_FIELDS (refused for tenants), or to NOT_LOCAL_PATH_FIELDS with the reason').toEqual([]);
  });

  test('every listed field exists in the schema', () => {
    const fields = new Set(schemaFields(serverEntrySchema));
    expect([...listed].filter((field) => !fields.has(field))).toEqual([]);
  });

  test('a private key file is a host file: never for a tenant', () => {
    expect(LOCAL_PATH_FIELDS.find((field) => dottedPath(field.path) === 'oauth.privateKeyFile')?.kind).toBe('host-file');
    expect(LOCAL_PATH_FIELDS.filter((field) => field.kind === 'process').map((field) => dottedPath(field.path))).toEqual(['command', 'args', 'cwd', 'path']);
  });
});
