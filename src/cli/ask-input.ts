/**
 * @module cli/ask-input
 * Asks for VS Code `${input:ID}` values on the terminal, as VS Code itself would: the description as
 * the question, the answer masked for `password: true`. Only when stdin is a terminal; otherwise
 * inputs come from `--input ID=VALUE` or `SWITCHBOARD_INPUT_<ID>`.
 */

import { createInterface } from 'node:readline';
import type { AskInput, InputRequest } from '../config/config-inputs.js';
import { inputEnvName } from '../config/config-inputs.js';
import { CliExit, ExitCode, usageError } from './cli-error.js';

/** The terminal asker, or undefined when stdin is not a terminal (nobody could answer). */
export function terminalInputAsker(input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): AskInput | undefined {
  if (input.isTTY !== true) return undefined;
  return async (request) => {
    const question = `${request.description ?? `Value of input "${request.id}"`} (${request.id}, for ${request.servers.join(', ')})${request.default === undefined ? '' : ` [${request.default}]`}: `;
    const answer = request.password ? await askMasked(question, input, output) : await askPlain(question, input, output);
    if (answer === '') return request.default;
    return answer;
  };
}

/** `--input ID=VALUE` flags as the environment variables that give the same inputs. */
export function inputFlagsAsEnv(flags: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const flag of flags) {
    const equals = flag.indexOf('=');
    if (equals <= 0) throw usageError(`--input ${flag.includes('=') ? '' : flag}: expected ID=VALUE, e.g. --input github-token=ghp_…`);
    env[inputEnvName(flag.slice(0, equals))] = flag.slice(equals + 1);
  }
  return env;
}

function askPlain(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  const readline = createInterface({ input, output, terminal: true });
  return new Promise<string>((resolve, reject) => {
    readline.once('SIGINT', () => {
      readline.close();
      reject(new CliExit(ExitCode.Interrupted));
    });
    readline.question(question, (answer) => {
      readline.close();
      resolve(answer.trim());
    });
  });
}

/** Reads one line in raw mode, echoing `*` per character (the value never reaches the screen). */
function askMasked(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  // Raw mode (no echo) before the question: an answer typed as soon as the question shows must never echo.
  const wasRaw = input.isRaw;
  input.setRawMode(true);
  input.resume();
  output.write(question);
  let value = '';
  return new Promise<string>((resolve, reject) => {
    const finish = (error?: CliExit): void => {
      input.off('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
      if (error === undefined) resolve(value);
      else reject(error);
    };
    const onData = (chunk: Buffer): void => {
      for (const character of chunk.toString('utf8')) {
        if (character === '\r' || character === '\n') return finish();
        if (character === '\u0003') return finish(new CliExit(ExitCode.Interrupted));
        if (character === '\u007f' || character === '\b') {
          if (value.length > 0) {
            value = value.slice(0, -1);
            output.write('\b \b');
          }
        } else if (character >= ' ') {
          value += character;
          output.write('*');
        }
      }
    };
    input.on('data', onData);
  });
}
