/**
 * @module adapters/strict-schema
 * OpenAI strict mode for a converted tool schema: `additionalProperties: false` and every property
 * required, optional ones made nullable, and the shape that removes the model's `null`s again from
 * its arguments. What strict mode cannot express (open maps, untyped values, cut recursion, optional
 * properties inside unions) is collected as blockers, and the caller falls back to non-strict.
 */

import { ANNOTATION_KEYWORDS, isRecord, isUnconstrained, joinDescriptions } from './schema-nodes.js';

/** Deepest object nesting OpenAI strict mode accepts. */
export const STRICT_MAX_NESTING = 10;

// What OpenAI strict mode supports (platform docs, "Supported schemas"); anything else is dropped and
// mentioned in the description so the model still knows about it.
const STRICT_KEYWORDS = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);

/** Where nulls were introduced for optional properties, to remove them again. */
export interface RestoreShape {
  optional: Set<string>;
  properties: Map<string, RestoreShape>;
  items?: RestoreShape;
}

export function toStrict(node: unknown, path: string, depth: number, insideUnion: boolean, blockers: string[]): { schema: unknown; shape?: RestoreShape } {
  if (!isRecord(node)) {
    if (node === true || node === undefined) blockers.push(`${path || '(root)'}: accepts any value`);
    return { schema: node };
  }
  const at = path || '(root)';
  if (isUnconstrained(node)) blockers.push(`${at}: recursive or unresolved reference`);
  const out: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (STRICT_KEYWORDS.has(key)) out[key] = value;
    else if (!ANNOTATION_KEYWORDS.has(key)) dropped.push(`${key} ${JSON.stringify(value)}`);
  }
  for (const keyword of ['not', 'if', 'allOf', 'patternProperties', 'dependentSchemas', 'prefixItems', 'unevaluatedProperties']) {
    if (node[keyword] !== undefined) blockers.push(`${at}: uses ${keyword}`);
  }
  if (dropped.length > 0) out.description = joinDescriptions(out.description, `(also: ${dropped.join(', ')})`);
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object')) || isRecord(out.properties);
  let shape: RestoreShape | undefined;
  if (Array.isArray(out.anyOf)) {
    out.anyOf = out.anyOf.map((branch, index) => toStrict(branch, `${path}.anyOf[${index}]`, depth, true, blockers).schema);
  } else if (out.type === undefined && out.enum === undefined && out.const === undefined) {
    blockers.push(`${at}: has no type`);
  }
  if (isObject) {
    if (depth >= STRICT_MAX_NESTING) blockers.push(`${at}: nested deeper than ${STRICT_MAX_NESTING} objects`);
    if (out.additionalProperties !== undefined && out.additionalProperties !== false) blockers.push(`${at}: is an open object (additionalProperties)`);
    const properties = isRecord(out.properties) ? out.properties : {};
    if (!isRecord(out.properties) && out.additionalProperties !== false && path !== '') blockers.push(`${at}: object without declared properties`);
    const required = new Set(Array.isArray(out.required) ? out.required.filter((name): name is string => typeof name === 'string') : []);
    const strictProperties: Record<string, unknown> = {};
    shape = { optional: new Set(), properties: new Map() };
    for (const [name, schema] of Object.entries(properties)) {
      const child = toStrict(schema, `${path}.${name}`, depth + 1, insideUnion, blockers);
      if (child.shape !== undefined) shape.properties.set(name, child.shape);
      if (required.has(name)) {
        strictProperties[name] = child.schema;
        continue;
      }
      if (insideUnion) blockers.push(`${path}.${name}: optional property inside a union`);
      const nullable = withNull(child.schema);
      if (nullable === undefined) blockers.push(`${path}.${name}: optional and cannot be made nullable`);
      else if (!acceptsNull(schema)) shape.optional.add(name);
      strictProperties[name] = nullable ?? child.schema;
    }
    if (out.type === undefined) out.type = 'object';
    out.properties = strictProperties;
    out.required = Object.keys(strictProperties);
    out.additionalProperties = false;
  }
  if (out.items !== undefined) {
    if (Array.isArray(out.items)) blockers.push(`${at}: tuple items`);
    else {
      const items = toStrict(out.items, `${path}[]`, depth + 1, insideUnion, blockers);
      out.items = items.schema;
      if (items.shape !== undefined) shape = { ...(shape ?? { optional: new Set(), properties: new Map() }), items: items.shape };
    }
  }
  return { schema: out, ...(shape === undefined ? {} : { shape }) };
}

function withNull(schema: unknown): unknown {
  if (!isRecord(schema)) return undefined;
  if (acceptsNull(schema)) return schema;
  if (typeof schema.type === 'string') {
    const out: Record<string, unknown> = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.type)) return { ...schema, type: [...schema.type, 'null'], ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}) };
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  if (schema.const !== undefined || Array.isArray(schema.enum)) {
    const { description, ...rest } = schema;
    return { anyOf: [rest, { type: 'null' }], ...(description === undefined ? {} : { description }) };
  }
  return undefined;
}

function acceptsNull(schema: unknown): boolean {
  if (!isRecord(schema)) return false;
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => isRecord(branch) && branch.type === 'null');
}

export function restore(value: unknown, shape: RestoreShape): unknown {
  if (Array.isArray(value)) return shape.items === undefined ? value : value.map((item) => restore(item, shape.items as RestoreShape));
  if (!isRecord(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === null && shape.optional.has(key)) continue;
    const childShape = shape.properties.get(key);
    out[key] = childShape === undefined ? child : restore(child, childShape);
  }
  return out;
}
