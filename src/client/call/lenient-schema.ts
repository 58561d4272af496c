/**
 * @module client/call/lenient-schema
 * The schema that client-side checking uses: never stricter than the server. Servers fill in a
 * property's `default` before they validate (zod's `.default()`, which is how most servers write
 * their schemas, also lists the property as required): @playwright/mcp's `browser_take_screenshot`
 * requires `scale`, defaults it to `"css"`, and accepts `{}`. So a required property that has a
 * default is not required here. The arguments themselves are never changed: the server applies its
 * own default. Nor is a `pattern` with a quantified group that itself repeats (`^(a+)+$`) or offers
 * alternatives that may match the same text (`^(a|aa)+$`) checked here:
 * a regular expression engine that backtracks takes exponential time on such a pattern, and one
 * server's schema would stall every caller of the process; the server checks its own pattern.
 */

import type { JsonSchema } from '../../connection/mcp-types.js';

// Keywords whose value is one subschema, a list of subschemas, or a map of subschemas. Not `not` and
// not `if`: relaxing a schema there would make the whole schema stricter.
const SCHEMA_KEYWORDS = ['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'then', 'else'];
const SCHEMA_LIST_KEYWORDS = ['items', 'prefixItems', 'anyOf', 'oneOf', 'allOf'];
const SCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
const MAX_DEPTH = 64;

/**
 * `schema` without the `required` entries whose property declares a `default`, at every level.
 * Returns the same object when there is nothing to relax (the common case), a relaxed copy otherwise.
 */
export function toLenientSchema(schema: JsonSchema): JsonSchema {
  const relaxed = relax(schema, 0);
  return isRecord(relaxed) ? relaxed : schema;
}

function relax(node: unknown, depth: number): unknown {
  if (!isRecord(node) || depth > MAX_DEPTH) return node;
  let copy: Record<string, unknown> | undefined;
  const set = (key: string, value: unknown): void => {
    copy ??= { ...node };
    copy[key] = value;
  };
  for (const key of SCHEMA_KEYWORDS) {
    const value = node[key];
    if (!isRecord(value)) continue;
    const relaxed = relax(value, depth + 1);
    if (relaxed !== value) set(key, relaxed);
  }
  for (const key of SCHEMA_LIST_KEYWORDS) {
    const value = node[key];
    if (!Array.isArray(value)) continue;
    const relaxed = value.map((item) => relax(item, depth + 1));
    if (relaxed.every((item, index) => item === value[index])) continue;
    // A relaxed branch may now match where another does too, which `oneOf` would refuse: `anyOf` never does.
    if (key === 'oneOf' && !Array.isArray(node.anyOf)) {
      set('anyOf', relaxed);
      copy = withoutKey(copy ?? node, 'oneOf');
    } else set(key, relaxed);
  }
  for (const key of SCHEMA_MAP_KEYWORDS) {
    const value = node[key];
    if (!isRecord(value)) continue;
    let map: Record<string, unknown> | undefined;
    for (const name of Object.keys(value)) {
      const relaxed = relax(value[name], depth + 1);
      if (relaxed !== value[name]) (map ??= { ...value })[name] = relaxed;
    }
    if (map !== undefined) set(key, map);
  }
  if (typeof node.pattern === 'string' && backtracksExponentially(node.pattern)) copy = withoutKey(copy ?? node, 'pattern');
  // A risky `patternProperties` key runs on every property name. The keys go, and with them what judged
  // the properties they did not match: without them, those keywords would be stricter than the server.
  if (isRecord(node.patternProperties) && Object.keys(node.patternProperties).some(backtracksExponentially)) {
    copy = withoutKey(withoutKey(withoutKey(copy ?? node, 'patternProperties'), 'additionalProperties'), 'unevaluatedProperties');
  }
  const required = node.required;
  const properties = node.properties;
  if (Array.isArray(required) && isRecord(properties)) {
    const kept = required.filter((name) => !(typeof name === 'string' && Object.hasOwn(properties, name) && hasDefault(properties[name])));
    if (kept.length !== required.length) set('required', kept);
  }
  return copy ?? node;
}

/** What the scan of a pattern knows of one open group. */
interface GroupScan {
  /** It can match text of more than one length in more than one way: a repetition or an optional atom (`+`, `*`, `?`, `{n,m}`), or a choice that may match the same text, directly or in a group within. */
  varies: boolean;
  /** The first character of each alternative, where it is a plain one that must match. */
  starts: string[];
  /** Some alternative starts with something else (a class, an escape, a group, `.`, an optional atom) or is empty. */
  unknownStart: boolean;
  /** The next token starts an alternative. */
  atStart: boolean;
  /** Atoms in the current alternative so far. */
  atoms: number;
  alternatives: number;
}

/** A count that may reach this is treated as a repetition (`(a|aa){40}`, `(a+){2,30}` backtrack as `+` does). */
const LARGE_COUNT = 10;
/** More repetitions than this in one pattern (`a*a*a*a*a*…`) backtrack polynomially to a high power: not run either. */
const MAX_REPETITIONS = 4;

/**
 * True when `pattern` repeats a group whose backtracking can be exponential: a group that holds a
 * repetition or an optional atom (`(a+)+`, `(\\w*\\s?)*`, `(aa?)+`, `(x{2,})*`), or a choice whose
 * alternatives may match the same text (`(a|aa)+`, `(\\w|\\s)*`, `(ab|a)*`, `(a?b|b)+`; told apart only
 * when each starts with a different plain character that must match, as in `(a|b)*`), also within
 * another group (`((a|aa)b?)+`); or more than {@link MAX_REPETITIONS} repetitions in all. A count that
 * may reach {@link LARGE_COUNT} is a repetition. Escapes and character classes are skipped. Safe patterns may be caught too: they are then only left to the server.
 */
export function backtracksExponentially(pattern: string): boolean {
  const groups: GroupScan[] = [];
  let repetitions = 0;
  const top = (): GroupScan | undefined => groups[groups.length - 1];
  /** An atom: `first` is its character when it is a plain one. */
  const atom = (first: string | undefined): void => {
    const group = top();
    if (group === undefined) return;
    group.atoms++;
    if (!group.atStart) return;
    group.atStart = false;
    if (first === undefined) group.unknownStart = true;
    else group.starts.push(first);
  };
  /** A quantifier after the last atom: `optional` when it may match nothing, `varies` when the atom may match more than one length. */
  const quantified = (optional: boolean, varies: boolean): void => {
    const group = top();
    if (group === undefined) return;
    if (varies) group.varies = true;
    // The alternative's first atom may be absent: it may start with whatever follows.
    if (optional && group.atoms === 1) group.unknownStart = true;
  };
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index] as string;
    if (character === '\\') {
      atom(undefined);
      index++;
      continue;
    }
    if (character === '[') {
      atom(undefined);
      while (index < pattern.length && pattern[index] !== ']') index += pattern[index] === '\\' ? 2 : 1;
      continue;
    }
    if (character === '(') {
      // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: the group's text starts after them.
      const modifier = /^\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>)/.exec(pattern.slice(index + 1));
      if (modifier !== null) index += modifier[0].length;
      groups.push({ varies: false, starts: [], unknownStart: false, atStart: true, atoms: 0, alternatives: 1 });
      continue;
    }
    if (character === '|') {
      const group = top();
      if (group === undefined) continue;
      if (group.atStart) group.unknownStart = true;
      group.alternatives++;
      group.atStart = true;
      group.atoms = 0;
      continue;
    }
    if (character === ')') {
      const inner = groups.pop();
      if (inner === undefined) continue;
      if (inner.atStart) inner.unknownStart = true;
      const ambiguous = inner.alternatives > 1 && (inner.unknownStart || new Set(inner.starts).size < inner.starts.length);
      const count = countAt(pattern, index + 1);
      const repeated = count !== undefined && isRepetition(count);
      if (repeated && (inner.varies || ambiguous || ++repetitions > MAX_REPETITIONS)) return true;
      // The group is an atom of the one around it: one that starts with a group has an unknown start.
      atom(undefined);
      const outer = top();
      if (outer !== undefined && (inner.varies || ambiguous)) outer.varies = true;
      if (count !== undefined) quantified(count.min === 0, count.max !== count.min);
      continue;
    }
    const count = countAt(pattern, index);
    if (count !== undefined) {
      if (isRepetition(count) && ++repetitions > MAX_REPETITIONS) return true;
      quantified(count.min === 0, count.max !== count.min);
      continue;
    }
    atom(character === '.' || character === '^' || character === '$' ? undefined : character);
  }
  return false;
}

/** A count that may reach {@link LARGE_COUNT} or has no bound. */
function isRepetition(count: { max: number | undefined }): boolean {
  return count.max === undefined || count.max >= LARGE_COUNT;
}

/** The quantifier at `index` (`+`, `*`, `?`, `{n}`, `{n,}`, `{n,m}`), as its least and most counts (most undefined: no bound). */
function countAt(pattern: string, index: number): { min: number; max: number | undefined } | undefined {
  const character = pattern[index];
  if (character === '+') return { min: 1, max: undefined };
  if (character === '*') return { min: 0, max: undefined };
  if (character === '?') return { min: 0, max: 1 };
  if (character !== '{') return undefined;
  const braces = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(index));
  if (braces === null) return undefined;
  const min = Number(braces[1]);
  if (braces[2] === undefined) return { min, max: min };
  return { min, max: braces[3] === '' ? undefined : Number(braces[3]) };
}

function hasDefault(schema: unknown): boolean {
  return isRecord(schema) && Object.hasOwn(schema, 'default');
}

function withoutKey(record: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
