/**
 * @module adapters/provider-schema
 * Turns a tool's JSON Schema into one that model providers accept as function parameters. OpenAI
 * rejects a schema whose top level is not a plain object (`anyOf`, `oneOf`, `allOf`, `enum`, `not`
 * there), and several providers choke on `$ref`/`$defs` (langchain-ai/langchainjs#9804, #9419). The
 * converted schema is only what the model is shown: the tool's ORIGINAL schema still validates the
 * arguments (`MultiServerClient.callTool` checks them), so loosening here never lets a bad call through.
 *
 * What it does:
 * - inlines local `$ref`s (`#/$defs/…`, `#/definitions/…`, any JSON pointer), cutting recursion after
 *   {@link DEFAULT_MAX_RECURSION} expansions; drops `$defs`, `definitions`, `$schema`, `$id`, `$comment`;
 * - rewrites `oneOf` as `anyOf` (providers that take unions take `anyOf`), merges `allOf` of objects;
 * - makes the top level an object: a top-level union of objects becomes one object with every
 *   property, requiring only what every branch requires, and a description of the alternatives;
 * - with `strict: true`, makes the schema valid for OpenAI strict mode where the schema allows it:
 *   `additionalProperties: false` and every property required, optional ones made nullable (the
 *   `null`s the model then sends are removed again by {@link ProviderSchema.restoreArguments}).
 *   Open objects (maps), untyped values, recursion, and optional properties inside unions cannot be
 *   expressed in strict mode; such a schema is returned non-strict, with the reasons.
 */

import type { JsonSchema } from '../connection/mcp-types.js';
import { ANNOTATION_KEYWORDS, UNCONSTRAINED, isRecord, isUnconstrained, joinDescriptions, mapValues, sameJson, withoutMarkers } from './schema-nodes.js';
import { STRICT_MAX_NESTING, restore, toStrict } from './strict-schema.js';

/** How many times a recursive `$ref` is expanded before it is cut to an unconstrained value. @default 2 */
export const DEFAULT_MAX_RECURSION = 2;
export { STRICT_MAX_NESTING };

/** Options of {@link toProviderSchema}. */
export interface ProviderSchemaOptions {
  /** Make the schema valid for OpenAI strict mode where the schema allows it. @default false */
  strict?: boolean;
  /** @default DEFAULT_MAX_RECURSION */
  maxRecursion?: number;
}

/** A provider-safe version of a tool's input schema. */
export interface ProviderSchema {
  /** An object schema with no `$ref`/`$defs` and no union at the top level. */
  parameters: JsonSchema;
  /** Whether `parameters` is valid for strict mode (only ever true when strict was asked for). */
  strict: boolean;
  /** Why strict mode was not possible (empty when it was, or was not asked for). */
  strictBlockers: string[];
  /**
   * Undoes what the strict conversion changed in the model's arguments: drops the `null` the model
   * sends for properties that were optional. Returns the arguments unchanged for non-strict schemas.
   */
  restoreArguments(args: Record<string, unknown>): Record<string, unknown>;
}

// Keywords whose value is one subschema, a list of subschemas, or a map of subschemas.
const SCHEMA_KEYWORDS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties', 'additionalItems'];
const SCHEMA_LIST_KEYWORDS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas'];
const DROPPED_KEYWORDS = new Set(['$schema', '$id', '$defs', 'definitions', '$comment', '$anchor', '$dynamicAnchor', '$vocabulary']);
const cache = new WeakMap<JsonSchema, Map<string, ProviderSchema>>();

/**
 * Converts a tool's input schema for a model provider. Pure and cached per schema object.
 *
 * @example
 * ```ts
 * const { parameters, strict, restoreArguments } = toProviderSchema(tool.inputSchema, { strict: true });
 * const tools = [{ type: 'function', function: { name: tool.name, parameters, strict } }];
 * // later: client.callTool(tool.name, restoreArguments(JSON.parse(call.function.arguments)))
 * ```
 */
export function toProviderSchema(schema: JsonSchema, options: ProviderSchemaOptions = {}): ProviderSchema {
  const key = `${options.strict === true}:${options.maxRecursion ?? DEFAULT_MAX_RECURSION}`;
  let perSchema = cache.get(schema);
  const cached = perSchema?.get(key);
  if (cached !== undefined) return cached;
  const result = convert(schema, options);
  if (perSchema === undefined) {
    perSchema = new Map();
    cache.set(schema, perSchema);
  }
  perSchema.set(key, result);
  return result;
}

function convert(schema: JsonSchema, options: ProviderSchemaOptions): ProviderSchema {
  const inlined = new RefInliner(schema, options.maxRecursion ?? DEFAULT_MAX_RECURSION).inline(schema);
  const normalized = normalizeNode(inlined);
  const marked = toTopLevelObject(isRecord(normalized) ? normalized : {});
  const parameters = withoutMarkers(marked) as JsonSchema;
  if (options.strict !== true) return { parameters, strict: false, strictBlockers: [], restoreArguments: identity };
  const blockers: string[] = [];
  const strictSchema = toStrict(marked, '', 0, false, blockers);
  if (blockers.length > 0 || !isRecord(strictSchema.schema)) return { parameters, strict: false, strictBlockers: blockers, restoreArguments: identity };
  const shape = strictSchema.shape;
  return {
    parameters: withoutMarkers(strictSchema.schema) as JsonSchema,
    strict: true,
    strictBlockers: [],
    restoreArguments: shape === undefined ? identity : (args) => restore(args, shape) as Record<string, unknown>,
  };
}

function identity(args: Record<string, unknown>): Record<string, unknown> {
  return args;
}

// ---------------------------------------------------------------------------------------------
// $ref inlining

class RefInliner {
  readonly #root: JsonSchema;
  readonly #maxRecursion: number;
  readonly #stack: string[] = [];

  constructor(root: JsonSchema, maxRecursion: number) {
    this.#root = root;
    this.#maxRecursion = maxRecursion;
  }

  inline(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.inline(item));
    if (!isRecord(node)) return node;
    const ref = node.$ref;
    if (typeof ref === 'string') return this.#expand(ref, node);
    return this.#inlineChildren(node);
  }

  #inlineChildren(node: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (DROPPED_KEYWORDS.has(key)) continue;
      if (SCHEMA_KEYWORDS.includes(key) || SCHEMA_LIST_KEYWORDS.includes(key)) out[key] = this.inline(value);
      else if (SCHEMA_MAP_KEYWORDS.includes(key) && isRecord(value)) out[key] = mapValues(value, (child) => this.inline(child));
      else out[key] = value;
    }
    return out;
  }

  #expand(ref: string, node: Record<string, unknown>): Record<string, unknown> {
    const { $ref: _ref, ...siblings } = node;
    const rest = this.#inlineChildren(siblings);
    const target = ref.startsWith('#') ? resolvePointer(this.#root, ref.slice(1)) : undefined;
    if (!isRecord(target)) {
      return { ...rest, description: joinDescriptions(rest.description, `(unresolved reference ${ref}; any value accepted)`), [UNCONSTRAINED]: true };
    }
    const depth = this.#stack.filter((item) => item === ref).length;
    if (depth >= this.#maxRecursion) {
      const type = typeof target.type === 'string' ? { type: target.type } : {};
      const description = joinDescriptions(target.description, rest.description, `(recursive ${ref}, not expanded further)`);
      return { ...type, ...rest, description, [UNCONSTRAINED]: true };
    }
    this.#stack.push(ref);
    try {
      const expanded = this.inline(target);
      // Sibling keywords next to $ref (description, default) refine the referenced schema.
      return isRecord(expanded) ? { ...expanded, ...rest } : rest;
    } finally {
      this.#stack.pop();
    }
  }
}

function resolvePointer(root: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return root;
  let current: unknown = root;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(segment)];
    else if (isRecord(current)) current = current[segment];
    else return undefined;
  }
  return current;
}

// ---------------------------------------------------------------------------------------------
// normalization: oneOf → anyOf, allOf of objects merged

function normalizeNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(normalizeNode);
  if (!isRecord(node)) return node;
  const out: Record<string | symbol, unknown> = {};
  if (isUnconstrained(node)) out[UNCONSTRAINED] = true;
  for (const [key, value] of Object.entries(node)) {
    if (SCHEMA_KEYWORDS.includes(key) || SCHEMA_LIST_KEYWORDS.includes(key)) out[key] = normalizeNode(value);
    else if (SCHEMA_MAP_KEYWORDS.includes(key) && isRecord(value)) out[key] = mapValues(value, normalizeNode);
    else out[key] = value;
  }
  if (Array.isArray(out.oneOf)) {
    out.anyOf = Array.isArray(out.anyOf) ? [...(out.anyOf as unknown[]), ...out.oneOf] : out.oneOf;
    delete out.oneOf;
  }
  if (Array.isArray(out.allOf)) {
    const members = out.allOf.filter(isRecord);
    if (members.length === out.allOf.length && members.every(isObjectLike)) {
      delete out.allOf;
      return mergeObjects([out as Record<string, unknown>, ...members]);
    }
  }
  return out;
}

function isObjectLike(schema: Record<string, unknown>): boolean {
  if (schema.anyOf !== undefined || schema.oneOf !== undefined || schema.allOf !== undefined || schema.not !== undefined) return false;
  return schema.type === 'object' || (schema.type === undefined && (isRecord(schema.properties) || Array.isArray(schema.required) || Object.keys(schema).every((key) => ANNOTATION_KEYWORDS.has(key) || key === 'description')));
}

/** Merges object schemas as `allOf` means: every property, every requirement. */
function mergeObjects(members: Record<string, unknown>[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const descriptions: unknown[] = [];
  let closed = members.length > 0;
  const out: Record<string | symbol, unknown> = {};
  for (const member of members) {
    const { properties: memberProperties, required: memberRequired, description, additionalProperties, type: _type, ...rest } = member;
    Object.assign(out, rest);
    if (isUnconstrained(member)) out[UNCONSTRAINED] = true;
    if (isRecord(memberProperties)) {
      for (const [name, schema] of Object.entries(memberProperties)) {
        const existing = properties[name];
        properties[name] = existing === undefined || sameJson(existing, schema) ? schema : mergePropertySchemas(existing, schema);
      }
    }
    if (Array.isArray(memberRequired)) for (const name of memberRequired) if (typeof name === 'string') required.add(name);
    if (description !== undefined) descriptions.push(description);
    // allOf with `additionalProperties: false` in one branch would forbid the other branches'
    // properties; what authors mean is "closed over the union", kept only when every branch is closed.
    if (additionalProperties !== false && (isRecord(memberProperties) || additionalProperties !== undefined)) closed = false;
  }
  return {
    ...out,
    type: 'object',
    ...(descriptions.length > 0 ? { description: joinDescriptions(...descriptions) } : {}),
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

function mergePropertySchemas(left: unknown, right: unknown): unknown {
  if (isRecord(left) && isRecord(right) && isObjectLike(left) && isObjectLike(right)) return mergeObjects([left, right]);
  return { allOf: [left, right] };
}

// ---------------------------------------------------------------------------------------------
// the top level

function toTopLevelObject(schema: Record<string, unknown>): JsonSchema {
  const { anyOf, allOf, not: _not, if: _if, then: _then, else: _else, enum: _enum, const: _const, type, ...rest } = schema;
  let base: Record<string | symbol, unknown> = { ...rest };
  if (isUnconstrained(schema)) base[UNCONSTRAINED] = true;
  if (Array.isArray(allOf)) {
    // allOf that normalization could not merge (a member is a union): keep the object members.
    base = mergeObjects([base as Record<string, unknown>, ...allOf.filter(isRecord).filter(isObjectLike)]);
  }
  if (Array.isArray(anyOf)) {
    const branches = anyOf.filter(isRecord).map((branch) => (Array.isArray(branch.allOf) ? mergeObjects(branch.allOf.filter(isRecord)) : branch)).filter(isObjectLike);
    if (branches.length > 0) base = mergeUnion(base as Record<string, unknown>, branches);
  }
  const properties = isRecord(base.properties) ? base.properties : {};
  const required = Array.isArray(base.required) ? base.required.filter((name): name is string => typeof name === 'string' && name in properties) : [];
  const out: Record<string | symbol, unknown> = { ...base, type: 'object', properties };
  if (required.length > 0) out.required = [...new Set(required)];
  else delete out.required;
  if (type !== undefined && type !== 'object' && !(Array.isArray(type) && type.includes('object'))) {
    out.description = joinDescriptions(out.description, `(the server declared a non-object input schema of type ${JSON.stringify(type)})`);
  }
  return out as JsonSchema;
}

/** A top-level union of objects as one object: every property, required only where all branches agree. */
function mergeUnion(base: Record<string, unknown>, branches: Record<string, unknown>[]): Record<string, unknown> {
  const properties: Record<string, unknown> = isRecord(base.properties) ? { ...base.properties } : {};
  const baseRequired = Array.isArray(base.required) ? base.required.filter((name): name is string => typeof name === 'string') : [];
  const variants = new Map<string, unknown[]>();
  let unconstrained = false;
  for (const branch of branches) {
    if (isUnconstrained(branch)) unconstrained = true;
    if (!isRecord(branch.properties)) continue;
    for (const [name, schema] of Object.entries(branch.properties)) {
      const list = variants.get(name) ?? [];
      if (!list.some((existing) => sameJson(existing, schema))) list.push(schema);
      variants.set(name, list);
    }
  }
  for (const [name, list] of variants) {
    const existing = properties[name];
    const all = existing === undefined ? list : [existing, ...list.filter((schema) => !sameJson(schema, existing))];
    properties[name] = all.length === 1 ? all[0] : { anyOf: all };
  }
  const requiredSets = branches.map((branch) => new Set(Array.isArray(branch.required) ? branch.required.filter((name): name is string => typeof name === 'string') : []));
  const common = [...(requiredSets[0] ?? [])].filter((name) => requiredSets.every((set) => set.has(name)));
  const alternatives = branches.map((branch, index) => {
    const names = Array.isArray(branch.required) && branch.required.length > 0 ? branch.required : Object.keys(isRecord(branch.properties) ? branch.properties : {});
    const label = typeof branch.description === 'string' ? ` (${branch.description})` : typeof branch.title === 'string' ? ` (${branch.title})` : '';
    return `${index + 1}) ${names.length === 0 ? 'no arguments' : names.join(', ')}${label}`;
  });
  const out: Record<string | symbol, unknown> = {
    ...base,
    properties,
    description: joinDescriptions(base.description, `Provide the arguments of exactly one of these forms: ${alternatives.join('; ')}.`),
  };
  const required = [...new Set([...baseRequired, ...common])];
  if (required.length > 0) out.required = required;
  else delete out.required;
  if (unconstrained) out[UNCONSTRAINED] = true;
  return out as Record<string, unknown>;
}

