/**
 * @module dashboard/model/schema-form
 * A tool's input schema turned into a form ("try it"), and the form's raw values turned back into
 * the call's arguments, checked against the schema first. Pure: the form component only renders the
 * fields and keeps their raw strings.
 *
 * Scalars get their own inputs (text, number, checkbox, select); arrays, objects and unions get a
 * JSON editor. A schema that is not an object of properties (a top-level `anyOf`) is edited as one
 * JSON document.
 */

import { isRecord } from './is-record.js';
import { constraintsOf, mergeAllOf, resolveRef, stringList, typeLabel, typesOf, type JsonSchema } from './json-schema.js';

/** The input a field gets. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

/** One argument of the form. */
export interface FormField {
  name: string;
  /** The schema's `title`, else the property name. */
  label: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  /** Readable type, e.g. `array of string`. */
  typeLabel: string;
  /** Readable constraints, e.g. `≥ 1`. */
  constraints: string[];
  /** The values of an `enum` field, in order (the form keeps their index). */
  options?: unknown[];
  default?: unknown;
  /** JSON editors: what the value must be, when the schema says. */
  jsonType?: 'array' | 'object';
  /** The property's schema, `$ref`s and `allOf` resolved. */
  schema: JsonSchema;
}

/** The form of one tool. */
export interface FormModel {
  fields: FormField[];
  /** True when the arguments can only be edited as one JSON document. */
  wholeJson: boolean;
}

/** Raw input values by field name; `WHOLE_JSON_KEY` holds the document of a whole-JSON form. */
export type FormValues = Record<string, string>;

/** The key of the JSON document in {@link FormValues}. */
export const WHOLE_JSON_KEY = '';

/** What {@link collectArguments} found: the arguments, or one message per field in error. */
export interface CollectedArguments {
  arguments?: Record<string, unknown>;
  errors: Record<string, string>;
}

/** The form for an input schema. */
export function formFromSchema(input: unknown): FormModel {
  const root = isRecord(input) ? input : {};
  const schema = mergeAllOf(resolveRef(root, root), root);
  const { types } = typesOf(schema);
  const isObject = types.length === 0 ? schema.anyOf === undefined && schema.oneOf === undefined : types.length === 1 && types[0] === 'object';
  if (!isObject) return { fields: [], wholeJson: true };
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(stringList(schema.required));
  const fields = Object.entries(properties).map(([name, raw]) => fieldOf(name, isRecord(raw) ? raw : {}, required.has(name), root));
  return { fields, wholeJson: false };
}

function fieldOf(name: string, raw: JsonSchema, required: boolean, root: JsonSchema): FormField {
  const schema = mergeAllOf(resolveRef(raw, root), root);
  const { types } = typesOf(schema);
  const field: FormField = {
    name,
    label: typeof schema.title === 'string' && schema.title !== '' ? schema.title : name,
    kind: kindOf(schema, types),
    required,
    typeLabel: typeLabel(raw, root),
    constraints: constraintsOf(schema),
    schema,
  };
  if (typeof schema.description === 'string') field.description = schema.description;
  if ('default' in schema) field.default = schema.default;
  if (field.kind === 'enum') field.options = Array.isArray(schema.enum) ? schema.enum : [schema.const];
  if (field.kind === 'json' && types.length === 1 && (types[0] === 'array' || types[0] === 'object')) field.jsonType = types[0];
  return field;
}

function kindOf(schema: JsonSchema, types: string[]): FieldKind {
  if (Array.isArray(schema.enum) || 'const' in schema) return 'enum';
  if (types.length !== 1) return 'json';
  switch (types[0]) {
    case 'string':
      return 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    default:
      return 'json';
  }
}

/** The raw values a fresh form starts with: defaults filled in, required booleans unchecked. */
export function initialValues(model: FormModel): FormValues {
  if (model.wholeJson) return { [WHOLE_JSON_KEY]: '{}' };
  const values: FormValues = {};
  for (const field of model.fields) values[field.name] = rawOf(field, field.default);
  return values;
}

/** The raw string a field shows for a value (`''` when unset). */
export function rawOf(field: FormField, value: unknown): string {
  if (value === undefined) return field.kind === 'boolean' && field.required ? 'false' : '';
  switch (field.kind) {
    case 'enum': {
      const index = (field.options ?? []).findIndex((option) => JSON.stringify(option) === JSON.stringify(value));
      return index === -1 ? '' : String(index);
    }
    case 'json':
      return JSON.stringify(value, null, 2);
    case 'boolean':
      return value === true ? 'true' : 'false';
    default:
      return typeof value === 'string' ? value : String(value);
  }
}

/** The form's values as arguments (raw values switched to JSON), or the errors found. */
export function collectArguments(model: FormModel, values: FormValues): CollectedArguments {
  if (model.wholeJson) {
    const parsed = parseJson(values[WHOLE_JSON_KEY] ?? '');
    if ('error' in parsed) return { errors: { [WHOLE_JSON_KEY]: parsed.error } };
    if (!isRecord(parsed.value)) return { errors: { [WHOLE_JSON_KEY]: 'must be a JSON object ({ … })' } };
    return { arguments: parsed.value, errors: {} };
  }
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of model.fields) {
    const outcome = valueOf(field, values[field.name] ?? '');
    if ('error' in outcome) errors[field.name] = outcome.error;
    else if (outcome.value !== undefined) args[field.name] = outcome.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { arguments: args, errors };
}

/** All arguments as one JSON document (to switch a form to the JSON editor without losing input). */
export function argumentsAsJson(model: FormModel, values: FormValues): string {
  if (model.wholeJson) return values[WHOLE_JSON_KEY] ?? '{}';
  const args: Record<string, unknown> = {};
  for (const field of model.fields) {
    const outcome = valueOf(field, values[field.name] ?? '');
    if ('value' in outcome && outcome.value !== undefined) args[field.name] = outcome.value;
  }
  return JSON.stringify(args, null, 2);
}

type Outcome = { value: unknown } | { error: string };

/** One field's raw string as a value (`undefined`: leave the argument out), or why it is wrong. */
export function valueOf(field: FormField, raw: string): Outcome {
  const empty = field.kind === 'string' ? raw === '' : raw.trim() === '';
  if (empty) return field.required ? { error: 'is required' } : { value: undefined };
  switch (field.kind) {
    case 'string':
      return checkString(field.schema, raw);
    case 'number':
    case 'integer':
      return checkNumber(field, raw.trim());
    case 'boolean':
      return raw === 'true' ? { value: true } : raw === 'false' ? { value: false } : { error: 'must be true or false' };
    case 'enum': {
      const options = field.options ?? [];
      const index = Number(raw);
      return Number.isInteger(index) && index >= 0 && index < options.length ? { value: options[index] } : { error: 'pick one of the listed values' };
    }
    case 'json':
      return checkJson(field, raw);
  }
}

function checkString(schema: JsonSchema, value: string): Outcome {
  const length = [...value].length;
  if (typeof schema.minLength === 'number' && length < schema.minLength) return { error: `must be at least ${schema.minLength} characters` };
  if (typeof schema.maxLength === 'number' && length > schema.maxLength) return { error: `must be at most ${schema.maxLength} characters` };
  if (typeof schema.pattern === 'string') {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(schema.pattern, 'u');
    } catch {
      // A pattern this browser cannot compile is the server's to check.
    }
    if (pattern !== undefined && !pattern.test(value)) return { error: `must match ${schema.pattern}` };
  }
  return { value };
}

function checkNumber(field: FormField, text: string): Outcome {
  const value = Number(text);
  if (!Number.isFinite(value)) return { error: 'must be a number' };
  if (field.kind === 'integer' && !Number.isInteger(value)) return { error: 'must be a whole number' };
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = field.schema;
  if (typeof minimum === 'number' && value < minimum) return { error: `must be ≥ ${minimum}` };
  if (typeof maximum === 'number' && value > maximum) return { error: `must be ≤ ${maximum}` };
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return { error: `must be > ${exclusiveMinimum}` };
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return { error: `must be < ${exclusiveMaximum}` };
  return { value };
}

function checkJson(field: FormField, text: string): Outcome {
  const parsed = parseJson(text);
  if ('error' in parsed) return parsed;
  if (field.jsonType === 'array' && !Array.isArray(parsed.value)) return { error: 'must be a JSON array ([ … ])' };
  if (field.jsonType === 'object' && !isRecord(parsed.value)) return { error: 'must be a JSON object ({ … })' };
  if (Array.isArray(parsed.value)) {
    const { minItems, maxItems } = field.schema;
    if (typeof minItems === 'number' && parsed.value.length < minItems) return { error: `must have at least ${minItems} items` };
    if (typeof maxItems === 'number' && parsed.value.length > maxItems) return { error: `must have at most ${maxItems} items` };
  }
  return parsed;
}

function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    const detail = error instanceof SyntaxError ? error.message : 'parse error';
    return { error: `is not valid JSON (${detail})` };
  }
}
