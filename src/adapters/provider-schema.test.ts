import { describe, expect, test } from 'vitest';
import { functionToolProblems } from '../../test/fixtures/openai/schema-rules.js';
import { ArgumentValidator } from '../client/call/argument-validator.js';
import type { JsonSchema } from '../connection/mcp-types.js';
import { toProviderSchema } from './provider-schema.js';

// Shapes real MCP servers send: zod-to-json-schema with $defs, pydantic unions, recursive trees.
const WITH_DEFS: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { owner: { $ref: '#/$defs/Person' }, reviewers: { type: 'array', items: { $ref: '#/$defs/Person', description: 'a reviewer' } } },
  required: ['owner'],
  $defs: { Person: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string' } }, required: ['name'] } },
};
const TOP_LEVEL_ANY_OF: JsonSchema = {
  anyOf: [
    { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], description: 'by path' },
    { type: 'object', properties: { id: { type: 'integer' }, path: { type: 'string' } }, required: ['id'] },
  ],
};
const TREE: JsonSchema = {
  type: 'object',
  properties: { root: { $ref: '#/definitions/Node' } },
  required: ['root'],
  definitions: { Node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/Node' } } }, required: ['label'] } },
};

const validator = new ArgumentValidator();

describe('toProviderSchema', () => {
  test('inlines $ref/$defs: OpenAI rejects the original (dangling refs once $defs are dropped) and accepts the result', () => {
    const { parameters } = toProviderSchema(WITH_DEFS);
    expect(JSON.stringify(parameters)).not.toMatch(/\$ref|\$defs|\$schema/);
    expect(parameters).toMatchObject({
      type: 'object',
      required: ['owner'],
      properties: { owner: { type: 'object', required: ['name'] }, reviewers: { items: { type: 'object', description: 'a reviewer' } } },
    });
    expect(functionToolProblems('pr', parameters, false)).toEqual([]);
    const { $defs: _defs, ...withoutDefs } = WITH_DEFS;
    expect(functionToolProblems('pr', withoutDefs, false).join()).toMatch(/reference to component '#\/\$defs\/Person'/);
  });

  test('cuts recursive references after two expansions and says so', () => {
    const { parameters } = toProviderSchema(TREE);
    const text = JSON.stringify(parameters);
    expect(text).not.toContain('$ref');
    expect(text).toContain('not expanded further');
    // root → children → children → cut
    const node = (parameters.properties as Record<string, JsonSchema>).root as JsonSchema;
    const level2 = ((node.properties as Record<string, JsonSchema>).children as JsonSchema).items as JsonSchema;
    const level3 = ((level2.properties as Record<string, JsonSchema>).children as JsonSchema).items as JsonSchema;
    expect(level3).toMatchObject({ type: 'object' });
    expect(level3.properties).toBeUndefined();
  });

  test('a top-level anyOf becomes one object (OpenAI rejects top-level unions); the original still validates', async () => {
    expect(functionToolProblems('open', TOP_LEVEL_ANY_OF, false).join()).toMatch(/type: "None"/);
    const { parameters } = toProviderSchema(TOP_LEVEL_ANY_OF);
    expect(functionToolProblems('open', parameters, false)).toEqual([]);
    expect(parameters.anyOf).toBeUndefined();
    expect(parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string' }, id: { type: 'integer' } } });
    expect(parameters.required).toBeUndefined(); // no property is required by both forms
    expect(parameters.description).toContain('1) path (by path); 2) id');
    // The merged schema accepts {} — the original does not, and it is the original that guards the call.
    expect(await validator.validate(parameters, {})).toEqual([]);
    expect((await validator.validate(TOP_LEVEL_ANY_OF, {})).length).toBeGreaterThan(0);
  });

  test('top-level oneOf and allOf are handled too; oneOf becomes anyOf below the top level', () => {
    const oneOf = toProviderSchema({ oneOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'string' } }, required: ['b'] }] });
    expect(functionToolProblems('x', oneOf.parameters, false)).toEqual([]);
    expect(Object.keys(oneOf.parameters.properties as object)).toEqual(['a', 'b']);

    const allOf = toProviderSchema({ allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { properties: { b: { type: 'number' } }, required: ['b'] }] });
    expect(functionToolProblems('x', allOf.parameters, false)).toEqual([]);
    expect(allOf.parameters).toMatchObject({ type: 'object', properties: { a: {}, b: {} }, required: ['a', 'b'] });

    const nested = toProviderSchema({ type: 'object', properties: { value: { oneOf: [{ type: 'string' }, { type: 'number' }] } } });
    expect((nested.parameters.properties as Record<string, JsonSchema>).value).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
  });

  test('a missing or non-object top level becomes an object schema', () => {
    expect(functionToolProblems('x', toProviderSchema({}).parameters, false)).toEqual([]);
    expect(toProviderSchema({}).parameters).toEqual({ type: 'object', properties: {} });
    const odd = toProviderSchema({ type: 'string' }).parameters;
    expect(odd).toMatchObject({ type: 'object', properties: {} });
    expect(odd.description).toContain('non-object');
  });

  test('strict mode: closed objects, every property required, optional ones nullable; restoreArguments undoes the nulls', async () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer' }, filter: { type: 'object', properties: { tag: { type: 'string' } } }, mode: { enum: ['a', 'b'] } },
      required: ['query'],
    };
    expect(functionToolProblems('search', schema, true).length).toBeGreaterThan(0);
    const converted = toProviderSchema(schema, { strict: true });
    expect(converted.strict).toBe(true);
    expect(functionToolProblems('search', converted.parameters, true)).toEqual([]);
    expect(converted.parameters).toMatchObject({
      additionalProperties: false,
      required: ['query', 'limit', 'filter', 'mode'],
      properties: { limit: { type: ['integer', 'null'] }, filter: { type: ['object', 'null'], additionalProperties: false, required: ['tag'], properties: { tag: { type: ['string', 'null'] } } } },
    });
    // minLength is not a strict-mode keyword: dropped, but the model is still told.
    expect((converted.parameters.properties as Record<string, JsonSchema>).query).toEqual({ type: 'string', description: '(also: minLength 1)' });

    const fromModel = { query: 'x', limit: null, filter: { tag: null }, mode: null };
    expect((await validator.validate(schema, fromModel)).length).toBeGreaterThan(0);
    const restored = converted.restoreArguments(fromModel);
    expect(restored).toEqual({ query: 'x', filter: {} });
    expect(await validator.validate(schema, restored)).toEqual([]);
  });

  test('strict mode keeps a null the original schema allows', () => {
    const converted = toProviderSchema({ type: 'object', properties: { note: { type: ['string', 'null'] } } }, { strict: true });
    expect(converted.strict).toBe(true);
    expect(converted.restoreArguments({ note: null })).toEqual({ note: null });
  });

  test('strict mode is refused where the schema cannot be expressed, with the reasons', () => {
    const map = toProviderSchema({ type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['labels'] }, { strict: true });
    expect(map.strict).toBe(false);
    expect(map.strictBlockers.join()).toMatch(/labels: is an open object/);
    expect(functionToolProblems('x', map.parameters, false)).toEqual([]);
    expect(map.restoreArguments({ labels: null })).toEqual({ labels: null });

    expect(toProviderSchema({ type: 'object', properties: { anything: {} }, required: ['anything'] }, { strict: true }).strictBlockers.join()).toMatch(/anything: has no type/);
    expect(toProviderSchema(TREE, { strict: true }).strictBlockers.join()).toMatch(/recursive/);
  });

  test('strict mode works on an inlined $defs schema', () => {
    const converted = toProviderSchema(WITH_DEFS, { strict: true });
    expect(converted.strict).toBe(true);
    expect(functionToolProblems('pr', converted.parameters, true)).toEqual([]);
    expect(converted.restoreArguments({ owner: { name: 'a', email: null }, reviewers: [{ name: 'b', email: null }] })).toEqual({ owner: { name: 'a' }, reviewers: [{ name: 'b' }] });
  });

  test('is cached per schema object and never returns internal markers', () => {
    expect(toProviderSchema(TREE)).toBe(toProviderSchema(TREE));
    expect(Object.getOwnPropertySymbols(toProviderSchema(TREE).parameters)).toEqual([]);
  });
});
