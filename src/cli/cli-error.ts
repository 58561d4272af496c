/**
 * @module cli/cli-error
 * Commands throw; only `main.ts` turns errors into exit codes: 0 ok, 1 operation failed, 2 usage or
 * config error, 130 interrupted.
 */

/** Exit codes of the CLI. */
export const ExitCode = { Ok: 0, Failed: 1, Usage: 2, Interrupted: 130 } as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** Ends the command with an exit code, after printing `message` (if any) on stderr. */
export class CliExit extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message = '',
  ) {
    super(message);
    this.name = 'CliExit';
  }
}

/** A usage mistake (bad flag value): exit 2 with the message. */
export function usageError(message: string): CliExit {
  return new CliExit(ExitCode.Usage, message);
}

/** A registry command run without its action (`switchboard users`) or with one it does not have. */
export function unknownActionError(action: string | undefined, usage: string): CliExit {
  return usageError(`${action === undefined ? 'an action is needed' : `unknown action "${action}"`}; usage: ${usage}`);
}
