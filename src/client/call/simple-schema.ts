/**
 * @module client/call/simple-schema
 * A fast, dependency-free check for the JSON Schemas most tools declare (an object of typed
 * properties, required names, enums, bounds). It only ever answers "certainly valid": when it
 * answers anything else, or when a schema uses a keyword it does not know (`$ref`, `anyOf`,
 * `patternProperties`, …), Ajv decides and writes the messages. So valid calls (the hot path) never
 * load Ajv (~300 KB of code, ~5 MiB). Randomized tests keep this no more lenient than Ajv, on
 * generated schemas (`simple-schema.test.ts`) and on the real servers' (`real-server-schemas.test.ts`).
 */

/** Answers true only when the value is certainly valid. */
export type SimpleCheck = (value: unknown) => boolean;

/** Keywords that only annotate (formats are not validated: Ajv runs with `validateFormats: false`). */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', '$schema', '$id', '$comment', 'deprecated', 'readOnly', 'writeOnly', 'format']);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const MAX_DEPTH = 16;

/** Compiles `schema` into a check, or undefined when it uses anything this module does not handle. */
export function compileSimpleSchema(schema: unknown, depth = 0): SimpleCheck | undefined {
  if (schema === true) return () => true;
  if (!isPlainObject(schema) || depth > MAX_DEPTH) return undefined;
  const checks: SimpleCheck[] = [];
  const properties = new Map<string, SimpleCheck>();
  let required: string[] = [];
  let additional: SimpleCheck | 'forbidden' | undefined;
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    switch (key) {
      case 'type': {
        const types = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined;
        if (types === undefined || types.length === 0 || !types.every((type) => typeof type === 'string' && TYPES.has(type))) return undefined;
        checks.push((data) => types.some((type) => hasType(data, type as string)));
        break;
      }
      case 'properties': {
        if (!isPlainObject(value)) return undefined;
        for (const name of Object.keys(value)) {
          // Ajv reads `data[name]`, which finds inherited members such as `constructor`: leave those to it.
          if (name in Object.prototype) return undefined;
          const check = compileSimpleSchema(value[name], depth + 1);
          if (check === undefined) return undefined;
          properties.set(name, check);
        }
        break;
      }
      case 'required':
        if (!Array.isArray(value) || !value.every((name) => typeof name === 'string' && !(name in Object.prototype))) return undefined;
        required = value as string[];
        break;
      case 'additionalProperties':
        if (value === false) additional = 'forbidden';
        else if (value !== true) {
          additional = compileSimpleSchema(value, depth + 1);
          if (additional === undefined) return undefined;
        }
        break;
      case 'enum': {
        if (!Array.isArray(value) || !value.every(isPrimitive)) return undefined;
        const allowed = new Set<unknown>(value);
        checks.push((data) => isPrimitive(data) && allowed.has(data));
        break;
      }
      case 'const':
        if (!isPrimitive(value)) return undefined;
        checks.push((data) => data === value);
        break;
      case 'items': {
        if (Array.isArray(value)) return undefined;
        const item = compileSimpleSchema(value, depth + 1);
        if (item === undefined) return undefined;
        checks.push((data) => !Array.isArray(data) || data.every((element) => item(element)));
        break;
      }
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum': {
        if (typeof value !== 'number') return undefined;
        const bound = value;
        const within =
          key === 'minimum' ? (n: number) => n >= bound : key === 'maximum' ? (n: number) => n <= bound : key === 'exclusiveMinimum' ? (n: number) => n > bound : (n: number) => n < bound;
        checks.push((data) => typeof data !== 'number' || within(data));
        break;
      }
      case 'minLength':
      case 'maxLength': {
        if (typeof value !== 'number') return undefined;
        const limit = value;
        checks.push((data) => typeof data !== 'string' || (key === 'minLength' ? codePoints(data) >= limit : codePoints(data) <= limit));
        break;
      }
      case 'minItems':
      case 'maxItems': {
        if (typeof value !== 'number') return undefined;
        const limit = value;
        checks.push((data) => !Array.isArray(data) || (key === 'minItems' ? data.length >= limit : data.length <= limit));
        break;
      }
      case 'pattern': {
        if (typeof value !== 'string') return undefined;
        let pattern: RegExp;
        try {
          pattern = new RegExp(value, 'u');
        } catch {
          return undefined;
        }
        checks.push((data) => typeof data !== 'string' || pattern.test(data));
        break;
      }
      default:
        if (!ANNOTATIONS.has(key)) return undefined;
    }
  }
  if (properties.size > 0 || required.length > 0 || additional !== undefined) {
    const extra = additional;
    checks.push((data) => {
      if (!isPlainObject(data)) return true;
      for (const name of required) if (data[name] === undefined) return false;
      for (const name of Object.keys(data)) {
        const item = data[name];
        // Keys holding `undefined` are judged differently by different validators: leave them to Ajv.
        if (item === undefined) return false;
        const check = properties.get(name);
        if (check !== undefined) {
          if (!check(item)) return false;
        } else if (extra === 'forbidden' || (extra !== undefined && !extra(item))) {
          return false;
        }
      }
      return true;
    });
  }
  if (checks.length === 0) return (data) => isJsonValue(data);
  if (checks.length === 1) {
    const [only] = checks as [SimpleCheck];
    return (data) => isJsonValue(data) && only(data);
  }
  return (data) => isJsonValue(data) && checks.every((check) => check(data));
}

function hasType(data: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof data === 'string';
    case 'number':
      return typeof data === 'number' && Number.isFinite(data);
    case 'integer':
      return typeof data === 'number' && Number.isInteger(data);
    case 'boolean':
      return typeof data === 'boolean';
    case 'null':
      return data === null;
    case 'array':
      return Array.isArray(data);
    case 'object':
      return isPlainObject(data);
    default:
      return false;
  }
}

/** Values this module may judge; anything else (functions, symbols, bigints, NaN, undefined) goes to Ajv. */
function isJsonValue(data: unknown): boolean {
  switch (typeof data) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(data);
    case 'object':
      return data === null || Array.isArray(data) || isPlainObject(data);
    default:
      return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isPrimitive(value: unknown): value is string | number | boolean | null {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** String length as JSON Schema counts it: in code points, not UTF-16 units. */
function codePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    count++;
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) index++;
  }
  return count;
}
