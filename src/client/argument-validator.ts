/**
 * @module client/argument-validator
 * Checks a call's arguments against the tool's `inputSchema` before anything is sent, with messages
 * an LLM can act on (which field, what was expected). Validators are compiled lazily, on a tool's
 * first call, never at list time; a schema that cannot be compiled is not enforced (the server
 * remains the judge). Uses the Ajv bundled in the MCP SDK.
 */

import type { JsonSchema } from '../connection/mcp-types.js';
import { noopLogger, type Logger } from '../logger.js';

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

/** Compiles and caches validators per schema object. */
export class ArgumentValidator {
  readonly #compiled = new WeakMap<JsonSchema, ValidateFunction | null>();
  readonly #logger: Logger;

  constructor(logger: Logger = noopLogger) {
    this.#logger = logger;
  }

  /** The problems of `args` against `schema` (empty when valid or when the schema cannot be compiled). */
  async validate(schema: JsonSchema, args: unknown): Promise<ArgumentProblem[]> {
    let validate = this.#compiled.get(schema);
    if (validate === undefined) {
      validate = await this.#compile(schema);
      this.#compiled.set(schema, validate);
    }
    if (validate === null || validate(args)) return [];
    return ((validate.errors ?? []) as AjvError[]).map(describeError);
  }

  async #compile(schema: JsonSchema): Promise<ValidateFunction | null> {
    const ajv = await getAjv();
    try {
      // Servers declare draft-07 or 2020-12; the keywords tools use are the same in both.
      const { $schema: _dialect, $id: _id, ...rest } = schema;
      return ajv.compile(rest);
    } catch (error) {
      this.#logger.debug('tool input schema does not compile; arguments are not checked', { error: String(error) });
      return null;
    }
  }
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
