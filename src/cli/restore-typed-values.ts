/**
 * @module cli/restore-typed-values
 * cac (through mri) turns every option value that looks like a number into one: `--user 007` became
 * user "7", a long numeric `--idp-client-id` lost digits, an all-digit token lost its value. The
 * values as typed are put back into the parsed options before a command runs; the commands convert
 * the ones that are numbers (`--port`, `--timeout`) themselves.
 */

/** Replaces each number cac made of an option's value by the text typed (every occurrence, in order). */
export function restoreTypedValues(options: Record<string, unknown>, argv: readonly string[]): void {
  for (const [name, values] of typedValues(argv)) {
    for (const key of new Set([name, camelCase(name)])) {
      const parsed = options[key];
      const numeric = typeof parsed === 'number' || (Array.isArray(parsed) && parsed.some((value) => typeof value === 'number'));
      if (!numeric) continue;
      if (!Array.isArray(parsed)) options[key] = values.at(-1);
      // One value per occurrence, as cac collected them; a boolean among them (a bare flag) keeps its place.
      else if (parsed.length === values.length) options[key] = parsed.map((value, index) => (typeof value === 'number' ? values[index] : value));
    }
  }
}

/** `--name value` and `--name=value` before `--`, by name, in order — read as mri reads them. */
function typedValues(argv: readonly string[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] ?? '';
    if (argument === '--') break;
    if (!argument.startsWith('--') || argument.startsWith('--no-')) continue;
    const equals = argument.indexOf('=');
    let name: string;
    let value: string;
    if (equals > 0) {
      name = argument.slice(2, equals);
      value = argument.slice(equals + 1);
    } else {
      name = argument.slice(2);
      const next = argv[index + 1];
      // A flag with no value (the last argument, or another option next) is a boolean, never a number.
      if (next === undefined || next.startsWith('-')) value = '';
      else {
        value = next;
        index++;
      }
    }
    const values = found.get(name) ?? [];
    values.push(value);
    found.set(name, values);
  }
  return found;
}

function camelCase(name: string): string {
  return name.replace(/([a-z])-([a-z])/g, (_match, before: string, after: string) => `${before}${after.toUpperCase()}`);
}
