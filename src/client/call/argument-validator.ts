/**
 * @module client/call/argument-validator
 * Checks a call's arguments against the tool's `inputSchema` before anything is sent, with messages
 * an LLM can act on (which field, what was expected). Validators are compiled lazily, on a tool's
 * first call, never at list time; a schema that cannot be compiled is not enforced (the server
 * remains the judge), and a required property with a default is not required (`lenient-schema.ts`):
 * checking here is never stricter than the server. Uses the Ajv bundled in the MCP SDK, loaded only when a schema or an argument
 * needs it (see `simple-schema.ts`).
 */

import type { JsonSchema } from '../../connection/mcp-types.js';
import { noopLogger, type Logger } from '../../logger.js';
import { toLenientSchema } from './lenient-schema.js';
import { compileSimpleSchema, type SimpleCheck } from './simple-schema.js';

type AjvInstance = InstanceType<typeof import('@modelcontextprotocol/client/validators/ajv').Ajv>;
type ValidateFunction = ReturnType<AjvInstance['compile']>;
interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A problem with one argument. */
export interface ArgumentProblem {
  /** Dotted path of the argument, `` for the object itself. */
  path: string;
  message: string;
}

let ajvPromise: Promise<AjvInstance> | undefined;

async function getAjv(): Promise<AjvInstance> {
  ajvPromise ??= import('@modelcontextprotocol/client/validators/ajv').then(({ Ajv }) => new Ajv({ strict: false, allErrors: true, validateFormats: false }));
  return ajvPromise;
}

type Compiled = ValidateFunction | null | Promise<ValidateFunction | null>;

/** What is kept per schema: the fast check (when the schema allows one) and Ajv's, compiled on need. */
interface Validators {
  /** The schema both checks judge by: the tool's, without its dialect and id, made lenient. */
  schema: JsonSchema;
  simple: SimpleCheck | undefined;
  ajv: Compiled | undefined;
}

/** Schemas remembered by their JSON text, so that a re-listed tool keeps its compiled validator. */
const MAX_SCHEMAS_BY_TEXT = 2_000;

/**
 * Compiles and caches validators per schema object, and per schema text: a `tools/list` after
 * `list_changed` brings new objects for the same schemas, and compiling again costs far more than
 * serializing the schema once. Valid arguments of a simple schema are accepted by a fast check
 * (`simple-schema.ts`); Ajv judges the rest and writes the messages.
 */
export class ArgumentValidator {
  readonly #compiled = new WeakMap<JsonSchema, Validators>();
  readonly #byText = new Map<string, Validators>();
  readonly #logger: Logger;

  constructor(logger: Logger = noopLogger) {
    this.#logger = logger;
  }

  /**
   * The problems of `args` against `schema` (empty when valid or when the schema cannot be compiled).
   * Synchronous for valid arguments of simple schemas, and once Ajv has compiled the schema (no
   * promise or microtask per call); a promise only while Ajv first compiles it (concurrent first
   * calls share one compilation).
   */
  validate(schema: JsonSchema, args: unknown): ArgumentProblem[] | Promise<ArgumentProblem[]> {
    let validators = this.#compiled.get(schema);
    if (validators === undefined) {
      const text = JSON.stringify(schema);
      validators = this.#byText.get(text);
      if (validators === undefined && text.length > MAX_CHECKED_SCHEMA_CHARS) {
        // Compiling it would block the event loop for seconds (a 20,000-entry enum took 9 s): the server checks it.
        this.#logger.info('a tool schema is too large to check here; the server checks its own', { chars: text.length, max: MAX_CHECKED_SCHEMA_CHARS });
        validators = { schema, simple: UNCHECKED, ajv: undefined };
        this.#byText.set(text, validators);
      }
      if (validators === undefined) {
        // Servers declare draft-07 or 2020-12; the keywords tools use are the same in both.
        const { $schema: _dialect, $id: _id, ...rest } = schema;
        const lenient = toLenientSchema(rest);
        validators = { schema: lenient, simple: compileSimpleSchema(lenient), ajv: undefined };
        if (this.#byText.size >= MAX_SCHEMAS_BY_TEXT) this.#byText.clear();
        this.#byText.set(text, validators);
      }
      this.#compiled.set(schema, validators);
    }
    if (validators.simple?.(args) === true) return NO_PROBLEMS;
    const entry = validators;
    entry.ajv ??= this.#compile(entry.schema).then((compiled) => (entry.ajv = compiled));
    const ajv = entry.ajv;
    return ajv instanceof Promise ? ajv.then((compiled) => check(compiled, args)) : check(ajv, args);
  }

  async #compile(schema: JsonSchema): Promise<ValidateFunction | null> {
    const ajv = await getAjv();
    try {
      return ajv.compile(schema);
    } catch (error) {
      this.#logger.debug('tool input schema does not compile; arguments are not checked', { error: String(error) });
      return null;
    }
  }
}

const NO_PROBLEMS: ArgumentProblem[] = [];
/** The check of a schema not checked here (see MAX_CHECKED_SCHEMA_CHARS): everything passes. */
const UNCHECKED: SimpleCheck = () => true;

/**
 * Longest schema (as JSON text) checked here. Real tool schemas stay far below it; compiling a larger
 * one (a huge `enum`) is synchronous and, in a gateway, stalls every user's calls while it runs.
 * @default 65536
 */
export const MAX_CHECKED_SCHEMA_CHARS = 64 * 1024;

function check(validate: ValidateFunction | null, args: unknown): ArgumentProblem[] {
  if (validate === null || validate(args)) return NO_PROBLEMS;
  return ((validate.errors ?? []) as AjvError[]).map(describeError);
}

function describeError(error: AjvError): ArgumentProblem {
  const base = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const params = error.params;
  switch (error.keyword) {
    case 'required': {
      const missing = String(params.missingProperty);
      return { path: base === '' ? missing : `${base}.${missing}`, message: 'is required but missing' };
    }
    case 'additionalProperties':
      return { path: base === '' ? String(params.additionalProperty) : `${base}.${String(params.additionalProperty)}`, message: 'is not an accepted argument' };
    case 'type':
      return { path: base, message: `must be of type ${String(params.type)}` };
    case 'enum':
      return { path: base, message: `must be one of ${JSON.stringify(params.allowedValues)}` };
    default:
      return { path: base, message: error.message ?? error.keyword };
  }
}

/** One line per problem, for an error message. */
export function formatArgumentProblems(problems: readonly ArgumentProblem[]): string {
  return problems.map((problem) => (problem.path === '' ? `arguments ${problem.message}` : `\`${problem.path}\` ${problem.message}`)).join('; ');
}
