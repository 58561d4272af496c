/**
 * @module cli/output
 * The only module that writes to stdout (results, `--json`). Diagnostics go to stderr.
 */

/** Writes a result line (or block) to stdout. */
export function writeResult(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Writes text to stdout as it is, without adding a newline (streamed answers). */
export function writeText(text: string): void {
  process.stdout.write(text);
}

/** Writes a value as pretty JSON to stdout. */
export function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes a diagnostic line to stderr. */
export function writeDiagnostic(text: string): void {
  process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
}

/**
 * `text` from a server (a tool's description, an error message) made safe for a terminal: control
 * characters — escape sequences that recolour or clear the screen, a newline that fakes a line of output —
 * are shown as `\xNN`, not acted on.
 */
export function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Whether stderr is a colour terminal (NO_COLOR respected). */
const useColor = process.stderr.isTTY === true && process.env.NO_COLOR === undefined;
const useColorOut = process.stdout.isTTY === true && process.env.NO_COLOR === undefined;

/** ANSI styling that disappears when the stream is not a terminal. */
export const style = {
  dim: (text: string, out = false): string => paint(text, '2', out),
  bold: (text: string, out = false): string => paint(text, '1', out),
  red: (text: string, out = false): string => paint(text, '31', out),
  green: (text: string, out = false): string => paint(text, '32', out),
  yellow: (text: string, out = false): string => paint(text, '33', out),
};

function paint(text: string, code: string, out: boolean): string {
  return (out ? useColorOut : useColor) ? `\u001b[${code}m${text}\u001b[0m` : text;
}
