/**
 * @module client/call/output-check
 * A tool's `structuredContent` checked against its `outputSchema` (MCP: a server that declares one
 * MUST return conforming structured results; a client SHOULD check). Per server (`validateOutput`):
 * `warn` logs each problem with its path and passes the result on, `error` replaces the result with
 * an `isError` one that names the problems (a model reads it like any failed call), `off` does not
 * look. Results with `isError: true` are never checked. Uses the same compiled validators as the
 * argument check, so a schema compiles once.
 */

import type { OutputValidation } from '../../config/server-spec.js';
import type { JsonSchema } from '../../connection/mcp-types.js';
import type { Logger } from '../../logger.js';
import type { ToolResult } from '../../result/tool-result.js';
import type { ArgumentProblem, ArgumentValidator } from './argument-validator.js';

/** One problem of a structured result: the path in `structuredContent` (dotted, `` for the whole) and what is wrong. */
export type OutputProblem = ArgumentProblem;

/** The tool a result came from, as far as the check needs it. */
export interface CheckedTool {
  name: string;
  server: string;
  outputSchema?: JsonSchema;
}

/** The default of `validateOutput`. */
export const DEFAULT_OUTPUT_VALIDATION: OutputValidation = 'warn';

/** Checks structured results; one per client (it shares the client's validator). */
export class OutputCheck {
  readonly #validator: ArgumentValidator;
  readonly #logger: Logger;

  constructor(validator: ArgumentValidator, logger: Logger) {
    this.#validator = validator;
    this.#logger = logger;
  }

  /** True when results of `tool` are checked under `mode` (so a caller adds no step for the others). */
  applies(tool: CheckedTool, mode: OutputValidation | undefined): boolean {
    return tool.outputSchema !== undefined && (mode ?? DEFAULT_OUTPUT_VALIDATION) !== 'off';
  }

  /** The result as the mode wants it. Never throws: a failed check is a result or a log line. */
  check(tool: CheckedTool, result: ToolResult, mode: OutputValidation | undefined): ToolResult | Promise<ToolResult> {
    const schema = tool.outputSchema;
    if (schema === undefined || result.isError || (mode ?? DEFAULT_OUTPUT_VALIDATION) === 'off') return result;
    if (result.structuredContent === undefined) return this.#judge(tool, result, mode, [{ path: '', message: 'is missing, but the tool declares an outputSchema' }]);
    let problems: OutputProblem[] | Promise<OutputProblem[]>;
    try {
      problems = this.#validator.validate(schema, result.structuredContent);
    } catch (error) {
      this.#logger.debug('output schema check failed', { server: tool.server, tool: tool.name, error: String(error) });
      return result;
    }
    if (Array.isArray(problems)) return this.#judge(tool, result, mode, problems);
    return problems.then(
      (found) => this.#judge(tool, result, mode, found),
      () => result,
    );
  }

  #judge(tool: CheckedTool, result: ToolResult, mode: OutputValidation | undefined, problems: OutputProblem[]): ToolResult {
    if (problems.length === 0) return result;
    const text = formatOutputProblems(problems);
    if ((mode ?? DEFAULT_OUTPUT_VALIDATION) === 'warn') {
      this.#logger.warn('structuredContent does not match the tool\'s outputSchema', { server: tool.server, tool: tool.name, problems: text });
      return result;
    }
    return {
      content: [{ type: 'text', text: `Tool "${tool.name}" on server "${tool.server}" returned a result that does not match its outputSchema: ${text}. The server is at fault; the result was withheld.` }],
      isError: true,
      ...(result._meta === undefined ? {} : { _meta: result._meta }),
    };
  }
}

/** `structuredContent.a.b must be …; …`, one clause per problem. */
export function formatOutputProblems(problems: readonly OutputProblem[]): string {
  return problems.map((problem) => `\`${problem.path === '' ? 'structuredContent' : `structuredContent.${problem.path}`}\` ${problem.message}`).join('; ');
}
