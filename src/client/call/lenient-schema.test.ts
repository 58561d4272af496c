import { Ajv } from '@modelcontextprotocol/client/validators/ajv';
import { describe, expect, test } from 'vitest';
import { backtracksExponentially, toLenientSchema } from './lenient-schema.js';

test('a schema without defaulted requirements is returned as it is', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };
  expect(toLenientSchema(schema)).toBe(schema);
});

test('drops required entries that have a default, at every level, without touching the input', () => {
  const schema = {
    type: 'object',
    properties: { scale: { type: 'string', default: 'css' }, name: { type: 'string' }, list: { type: 'array', items: { type: 'object', properties: { x: { default: 0 } }, required: ['x'] } } },
    required: ['scale', 'name'],
  };
  const text = JSON.stringify(schema);
  expect(toLenientSchema(schema)).toEqual({
    type: 'object',
    properties: { scale: { type: 'string', default: 'css' }, name: { type: 'string' }, list: { type: 'array', items: { type: 'object', properties: { x: { default: 0 } }, required: [] } } },
    required: ['name'],
  });
  expect(JSON.stringify(schema)).toBe(text);
});

test('never stricter: a relaxed `oneOf` becomes `anyOf`, and nothing under `not` or `if` is relaxed', () => {
  const ajv = new Ajv({ strict: false });
  const union = { oneOf: [{ type: 'object', properties: { mode: { default: 'a' } }, required: ['mode'] }, { type: 'object', properties: { other: {} } }] };
  // `{}` matched only the second branch; relaxed, it matches both, which `oneOf` would refuse.
  expect(ajv.validate(union, {})).toBe(true);
  expect(ajv.validate(toLenientSchema(union), {})).toBe(true);
  const negated = { type: 'object', not: { type: 'object', properties: { a: { default: 1 } }, required: ['a'] } };
  expect(toLenientSchema(negated)).toBe(negated);
  expect(ajv.validate(toLenientSchema(negated), {})).toBe(true);
});

describe('patterns whose backtracking is exponential', () => {
  test.each(['^(a+)+$', '(\\w*\\s?)*x', '^(x{2,})*$', '((ab)+c)+', '^([a-z]+\\d*)*$', '^(a|aa)+$', '^(\\w|\\s)*$', '(ab|a)*c', '^(a|)+$', '^(?:x|x)+$', '(.|a)*', '^(a?b|b)+$', '^(aa?)+$', '^(?:(a|aa))+$', '^((a|aa)b?)+$', '^(a|aa){40}$', '^(.*a){12}$', '^(.*){1,32}x$', '^(a+){2,30}b$', '^(a|a?){0,30}b$', '^(\\w{1,30}){1,30}$', '^a*a*a*a*a*a*a*a*a*a*a*a*$'])('%s is not checked here', (pattern) => {
    expect(backtracksExponentially(pattern)).toBe(true);
    expect(toLenientSchema({ type: 'object', properties: { s: { type: 'string', pattern } } })).toEqual({ type: 'object', properties: { s: { type: 'string' } } });
  });

  test.each(['^[a-z0-9-]{1,40}$', '^(ab)+$', '^\\(a+\\)+$', '^[(a+)+]$', '^(\\d{3})-(\\d{4})$', '^(a|b)*c+$', '^(foo|bar)+$', '^(?:x|y)+$', '^(https?|ftp)://[^ ]+$', '^(a|aa)$', '^(ab){2}$', '^(\\+?\\d{1,3})?[0-9 ]{6,20}$', '^([a-z]{2})-([A-Z]{2})$', '^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$'])('%s is kept', (pattern) => {
    expect(backtracksExponentially(pattern)).toBe(false);
    const schema = { type: 'object', properties: { s: { type: 'string', pattern } } };
    expect(toLenientSchema(schema)).toBe(schema);
  });

  test('a risky patternProperties key goes, and with it what judged the other properties (never stricter than the server)', () => {
    const risky = { type: 'object', properties: { a: { type: 'string' } }, patternProperties: { '^(a+)+$': { type: 'string' } }, additionalProperties: false };
    expect(toLenientSchema(risky)).toEqual({ type: 'object', properties: { a: { type: 'string' } } });
    const safe = { type: 'object', patternProperties: { '^x-[a-z]+$': { type: 'string' } }, additionalProperties: false };
    expect(toLenientSchema(safe)).toBe(safe);
  });

  test('such a pattern is not run on the arguments: a value it refuses passes here (the server judges it)', async () => {
    const { ArgumentValidator } = await import('./argument-validator.js');
    const validator = new ArgumentValidator();
    // Short, so the test stays quick even if the pattern were run; with it run, this value is refused.
    expect(await validator.validate({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }, { s: 'aab!' })).toEqual([]);
    expect(await validator.validate({ type: 'object', properties: { s: { type: 'string', pattern: '^a+$' } } }, { s: 'aab!' })).not.toEqual([]);
  });
});
