import { describe, expect, it } from 'vitest';
import { argumentsAsJson, collectArguments, formFromSchema, initialValues, WHOLE_JSON_KEY } from './schema-form.js';

describe('formFromSchema', () => {
  it('gives each scalar its own input and everything else a JSON editor', () => {
    const model = formFromSchema({
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to find', minLength: 2 },
        limit: { type: 'integer', minimum: 1, default: 10 },
        ratio: { type: 'number' },
        exact: { type: 'boolean' },
        mode: { enum: ['fast', 'slow'] },
        tags: { type: 'array', items: { type: 'string' } },
        filter: { type: 'object', properties: {} },
        either: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['query', 'exact'],
    });
    expect(model.wholeJson).toBe(false);
    expect(model.fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['query', 'string', true],
      ['limit', 'integer', false],
      ['ratio', 'number', false],
      ['exact', 'boolean', true],
      ['mode', 'enum', false],
      ['tags', 'json', false],
      ['filter', 'json', false],
      ['either', 'json', false],
    ]);
    const byName = Object.fromEntries(model.fields.map((field) => [field.name, field]));
    expect(byName.query?.description).toBe('What to find');
    expect(byName.query?.constraints).toEqual(['at least 2 characters']);
    expect(byName.limit?.constraints).toEqual(['≥ 1']);
    expect(byName.tags?.typeLabel).toBe('array of string');
    expect(byName.tags?.jsonType).toBe('array');
    expect(byName.either?.typeLabel).toBe('one of 2 shapes');
    expect(initialValues(model)).toEqual({ query: '', limit: '10', ratio: '', exact: 'false', mode: '', tags: '', filter: '', either: '' });
  });

  it('follows $refs and merges allOf', () => {
    const assign = formFromSchema({
      type: 'object',
      properties: { ticket: { type: 'string' }, owner: { $ref: '#/$defs/Person' } },
      required: ['ticket', 'owner'],
      $defs: { Person: { type: 'object', properties: { name: { type: 'string' } } } },
    });
    expect(assign.fields[1]).toMatchObject({ name: 'owner', kind: 'json', jsonType: 'object', typeLabel: 'Person', required: true });
    const merged = formFromSchema({ allOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'number' } } }] });
    expect(merged.fields.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['a', 'string', true],
      ['b', 'number', false],
    ]);
  });

  it('edits a top-level union as one JSON document', () => {
    const model = formFromSchema({ anyOf: [{ type: 'object', properties: { path: { type: 'string' } } }, { type: 'object', properties: { id: { type: 'integer' } } }] });
    expect(model).toEqual({ fields: [], wholeJson: true });
    expect(collectArguments(model, { [WHOLE_JSON_KEY]: '{"id": 3}' })).toEqual({ arguments: { id: 3 }, errors: {} });
    expect(collectArguments(model, { [WHOLE_JSON_KEY]: '[1]' }).errors[WHOLE_JSON_KEY]).toMatch(/JSON object/);
    expect(collectArguments(model, { [WHOLE_JSON_KEY]: '{' }).errors[WHOLE_JSON_KEY]).toMatch(/not valid JSON/);
  });

  it('takes a tool without input (no schema, or an empty object) as a form without fields', () => {
    expect(formFromSchema({ type: 'object' })).toEqual({ fields: [], wholeJson: false });
    expect(formFromSchema(undefined)).toEqual({ fields: [], wholeJson: false });
    expect(collectArguments(formFromSchema({ type: 'object' }), {})).toEqual({ arguments: {}, errors: {} });
  });

  it('reads nullable types as their non-null type', () => {
    const model = formFromSchema({ type: 'object', properties: { note: { type: ['string', 'null'] } } });
    expect(model.fields[0]).toMatchObject({ kind: 'string', typeLabel: 'string or null' });
  });
});

describe('collectArguments', () => {
  const model = formFromSchema({
    type: 'object',
    properties: {
      query: { type: 'string', pattern: '^[a-z]+$' },
      limit: { type: 'integer', minimum: 1, maximum: 50 },
      ratio: { type: 'number', exclusiveMaximum: 1 },
      exact: { type: 'boolean' },
      verbose: { type: 'boolean' },
      mode: { enum: ['fast', 2, null] },
      tags: { type: 'array', maxItems: 2 },
      extra: { type: 'object' },
    },
    required: ['query', 'verbose'],
  });

  it('converts every raw value to its JSON type and leaves out empty optional ones', () => {
    const result = collectArguments(model, { query: 'abc', limit: ' 7 ', ratio: '0.5', exact: 'true', verbose: 'false', mode: '1', tags: '["a"]', extra: '' });
    expect(result).toEqual({ arguments: { query: 'abc', limit: 7, ratio: 0.5, exact: true, verbose: false, mode: 2, tags: ['a'] }, errors: {} });
    expect(collectArguments(model, { query: 'abc', verbose: 'true', mode: '2' }).arguments).toEqual({ query: 'abc', verbose: true, mode: null });
  });

  it('names every field in error, with what to fix', () => {
    const result = collectArguments(model, { query: '', limit: '2.5', ratio: '1', verbose: 'false', mode: '9', tags: '[1,2,3]', extra: '[]' });
    expect(result.arguments).toBeUndefined();
    expect(result.errors).toEqual({
      query: 'is required',
      limit: 'must be a whole number',
      ratio: 'must be < 1',
      mode: 'pick one of the listed values',
      tags: 'must have at most 2 items',
      extra: 'must be a JSON object ({ … })',
    });
    expect(collectArguments(model, { query: 'ABC', verbose: 'false', limit: '0' }).errors).toEqual({ query: 'must match ^[a-z]+$', limit: 'must be ≥ 1' });
    expect(collectArguments(model, { query: 'a', verbose: 'false', limit: 'ten' }).errors).toEqual({ limit: 'must be a number' });
    expect(collectArguments(model, { query: 'a', verbose: 'false', tags: '[1,' }).errors.tags).toMatch(/^is not valid JSON/);
  });

  it('keeps what was typed when switching to the JSON editor', () => {
    expect(JSON.parse(argumentsAsJson(model, { query: 'abc', limit: 'oops', verbose: 'true' }))).toEqual({ query: 'abc', verbose: true });
  });
});
