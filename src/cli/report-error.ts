/**
 * @module cli/report-error
 * An error of a CLI run → what the user reads on stderr and the exit code: usage and config mistakes
 * without stack traces, `SwitchboardError`s with their code and hint, anything else as an internal error.
 */

import { ErrorCode, formatConfigIssue, isSwitchboardError } from '../errors.js';
import type { Logger } from '../logger.js';
import { CliExit, ExitCode } from './cli-error.js';
import { style, writeDiagnostic } from './output.js';

/** Prints what went wrong (no stack traces for user mistakes) and picks the exit code. */
export function reportError(error: unknown, logger: Logger): number {
  if (error instanceof CliExit) {
    if (error.message !== '') writeDiagnostic(error.exitCode === ExitCode.Failed ? style.red(error.message) : error.message);
    return error.exitCode;
  }
  if (isSwitchboardError(error)) {
    if (error.code === ErrorCode.ConfigInvalid) {
      writeDiagnostic(style.red(error.message));
      const warnings = (error as { warnings?: unknown }).warnings;
      if (Array.isArray(warnings) && warnings.length > 0) {
        writeDiagnostic(`warnings:\n${warnings.map((warning) => `  ${formatConfigIssue(warning as { path: string; message: string })}`).join('\n')}`);
      }
      return ExitCode.Usage;
    }
    writeDiagnostic(`${style.red(`error ${error.code}`)}: ${error.message}`);
    if (error.hint !== undefined) writeDiagnostic(style.dim(`hint: ${error.hint}`));
    return ExitCode.Failed;
  }
  if (error instanceof Error && /^(Unknown option|missing required args|Unused args)/i.test(error.message)) {
    writeDiagnostic(`${error.message}; run switchboard --help`);
    return ExitCode.Usage;
  }
  writeDiagnostic(style.red('internal error (this is a bug in mcp-switchboard; please report it with the output of --debug):'));
  writeDiagnostic(error instanceof Error ? (error.stack ?? error.message) : String(error));
  logger.debug('internal error', { error: String(error) });
  return ExitCode.Failed;
}
