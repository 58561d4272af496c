/**
 * @module dashboard/model/json-schema
 * Reading the JSON Schemas tools declare: local `$ref`s resolved, `allOf` merged, types named for
 * people. Tool schemas come from arbitrary servers, so every access is checked.
 */

import { isRecord } from './is-record.js';

/** A JSON Schema object (anything else, such as `true`, is treated as "any value"). */
export type JsonSchema = Record<string, unknown>;

/** How deep `$ref`s are followed before giving up (recursive schemas). @default 8 */
export const MAX_REF_DEPTH = 8;

/** The schema a `$ref` points to inside `root` (`#/$defs/X`, `#/definitions/X`, any local pointer). */
export function resolveRef(schema: JsonSchema, root: JsonSchema, depth = 0): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#') || depth >= MAX_REF_DEPTH) return schema;
  let target: unknown = root;
  for (const raw of ref.slice(1).split('/').filter((part) => part !== '')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    target = isRecord(target) ? target[key] : undefined;
  }
  if (!isRecord(target)) return schema;
  // Keywords beside $ref (a description, a default) are kept over the target's.
  const { $ref: _ref, ...beside } = schema;
  return resolveRef({ ...target, ...beside }, root, depth + 1);
}

/** The schema with `allOf` members merged into one object schema (properties and required joined). */
export function mergeAllOf(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const members = Array.isArray(schema.allOf) ? schema.allOf.filter(isRecord) : [];
  if (members.length === 0) return schema;
  const { allOf: _allOf, ...rest } = schema;
  const merged: JsonSchema = { ...rest };
  const properties: Record<string, unknown> = isRecord(rest.properties) ? { ...rest.properties } : {};
  const required = new Set(stringList(rest.required));
  for (const member of members.map((item) => mergeAllOf(resolveRef(item, root), root))) {
    if (isRecord(member.properties)) Object.assign(properties, member.properties);
    for (const name of stringList(member.required)) required.add(name);
    if (merged.type === undefined && member.type !== undefined) merged.type = member.type;
  }
  merged.properties = properties;
  merged.required = [...required];
  return merged;
}

/** The non-null types a schema allows (`type: ["string", "null"]` → `["string"]`), and whether null is one. */
export function typesOf(schema: JsonSchema): { types: string[]; nullable: boolean } {
  const raw = schema.type;
  const list = typeof raw === 'string' ? [raw] : stringList(raw);
  return { types: list.filter((type) => type !== 'null'), nullable: list.includes('null') || schema.nullable === true };
}

/** A short name of what a schema accepts: `string`, `integer`, `array of string`, `Person`, `one of 2 shapes`. */
export function typeLabel(schema: JsonSchema, root: JsonSchema): string {
  const refName = typeof schema.$ref === 'string' ? schema.$ref.split('/').at(-1) : undefined;
  const resolved = mergeAllOf(resolveRef(schema, root), root);
  const { types, nullable } = typesOf(resolved);
  const suffix = nullable ? ' or null' : '';
  if (Array.isArray(resolved.enum)) return `one of ${resolved.enum.map((value) => JSON.stringify(value)).join(', ')}${suffix}`;
  if ('const' in resolved) return `exactly ${JSON.stringify(resolved.const)}`;
  const union = Array.isArray(resolved.anyOf) ? resolved.anyOf : Array.isArray(resolved.oneOf) ? resolved.oneOf : undefined;
  if (union !== undefined && types.length === 0) return `one of ${union.length} shapes${suffix}`;
  if (types.length === 1 && types[0] === 'array') {
    const items = isRecord(resolved.items) ? typeLabel(resolved.items, root) : 'anything';
    return `array of ${items}${suffix}`;
  }
  if (refName !== undefined && refName !== '' && (types.length === 0 || types[0] === 'object')) return `${refName}${suffix}`;
  if (types.length === 0) return resolved.properties !== undefined ? `object${suffix}` : `any${suffix}`;
  const label = types.join(' or ');
  return typeof resolved.format === 'string' ? `${label} (${resolved.format})${suffix}` : `${label}${suffix}`;
}

/** The constraints of a schema, in words: `≥ 0`, `at most 10 characters`, `matches ^a+$`. */
export function constraintsOf(schema: JsonSchema): string[] {
  const words: string[] = [];
  const number = (key: string): number | undefined => {
    const value = schema[key];
    return typeof value === 'number' ? value : undefined;
  };
  const minimum = number('minimum');
  const maximum = number('maximum');
  const exclusiveMinimum = number('exclusiveMinimum');
  const exclusiveMaximum = number('exclusiveMaximum');
  if (minimum !== undefined) words.push(`≥ ${minimum}`);
  if (exclusiveMinimum !== undefined) words.push(`> ${exclusiveMinimum}`);
  if (maximum !== undefined) words.push(`≤ ${maximum}`);
  if (exclusiveMaximum !== undefined) words.push(`< ${exclusiveMaximum}`);
  const minLength = number('minLength');
  const maxLength = number('maxLength');
  if (minLength !== undefined) words.push(`at least ${minLength} character${minLength === 1 ? '' : 's'}`);
  if (maxLength !== undefined) words.push(`at most ${maxLength} character${maxLength === 1 ? '' : 's'}`);
  const minItems = number('minItems');
  const maxItems = number('maxItems');
  if (minItems !== undefined) words.push(`at least ${minItems} item${minItems === 1 ? '' : 's'}`);
  if (maxItems !== undefined) words.push(`at most ${maxItems} item${maxItems === 1 ? '' : 's'}`);
  if (typeof schema.pattern === 'string') words.push(`matches ${schema.pattern}`);
  return words;
}

/** The strings of a list (anything else dropped). */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
