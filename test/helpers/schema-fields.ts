/**
 * Every field of a zod (v4) schema, walked through objects, optionals, unions, records and arrays:
 * the field-list tests use it to find a field nobody classified. A record's values are `*`, an
 * array's items `[]`.
 */
import { z } from 'zod';

/** The path of every leaf of `schema` (a field whose type is not an object, a record or an array). */
export function schemaLeaves(schema: z.ZodType, at: readonly string[] = []): string[][] {
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, child]) => schemaLeaves(child, [...at, key]));
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return schemaLeaves(schema.unwrap() as z.ZodType, at);
  if (schema instanceof z.ZodDefault) return schemaLeaves(schema.removeDefault() as z.ZodType, at);
  if (schema instanceof z.ZodUnion) return (schema.options as readonly z.ZodType[]).flatMap((option) => schemaLeaves(option, at));
  if (schema instanceof z.ZodRecord) return schemaLeaves(schema.valueType as z.ZodType, [...at, '*']);
  if (schema instanceof z.ZodArray) return schemaLeaves(schema.element as z.ZodType, [...at, '[]']);
  return [[...at]];
}

/** The field a leaf belongs to: its path without the `*` / `[]` steps, dotted (`headers`, `oauth.idp.idToken`). */
export function fieldOf(leaf: readonly string[]): string {
  return leaf.filter((key) => key !== '*' && key !== '[]').join('.');
}

/** The distinct fields of `schema`, sorted. */
export function schemaFields(schema: z.ZodType): string[] {
  return [...new Set(schemaLeaves(schema).map(fieldOf))].filter((field) => field !== '').sort();
}

/** The words of a field's own name, lower case: `privateKeyFile` → private, key, file; `api_key` → api, key. */
export function wordsOf(field: string): string[] {
  const name = field.split('.').at(-1) ?? '';
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}
