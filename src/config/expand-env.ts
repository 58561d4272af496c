/**
 * @module config/expand-env
 * `${VAR}`, `${VAR:-default}`, VS Code's `${env:VAR}`, its predefined variables (`${workspaceFolder}`,
 * `${/}`, …) and its `${input:ID}` in config strings. `$${` escapes a literal `${`. One pass, so a
 * value that contains `${…}` is never expanded again.
 */

const REFERENCE = /\$\$\{|\$\{input:([^}\s]+)\}|\$\{(env:)?([A-Za-z_][A-Za-z0-9_]*|\/)(?::-([^}]*))?\}/g;

/** What a string may refer to. */
export interface VariableSources {
  /** Environment variables (`${VAR}`, `${env:VAR}`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Predefined variables (`${workspaceFolder}`…); they win over an environment variable of the same name, not over `${env:…}`. */
  predefined?: Readonly<Record<string, string>>;
  /** Values of `${input:ID}`; without this map, input references stay as they are. */
  inputs?: Readonly<Record<string, string | undefined>>;
}

/** The expanded string and the names of variables and inputs that were referenced but have no value. */
export interface ExpandedText {
  value: string;
  missing: string[];
  missingInputs: string[];
}

/** Expands every reference of `text` in one pass. */
export function expandVariables(text: string, sources: VariableSources): ExpandedText {
  const missing: string[] = [];
  const missingInputs: string[] = [];
  const value = text.replace(REFERENCE, (whole, input: string | undefined, envPrefix: string | undefined, name: string | undefined, fallback: string | undefined) => {
    if (whole === '$${') return '${';
    if (input !== undefined) {
      if (sources.inputs === undefined) return whole;
      const given = sources.inputs[input];
      if (given !== undefined) return given;
      missingInputs.push(input);
      return '';
    }
    if (name === undefined) return whole;
    const predefined = envPrefix === undefined ? sources.predefined?.[name] : undefined;
    if (predefined !== undefined) return predefined;
    if (name === '/') return whole;
    const found = sources.env[name];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    if (found === '') return '';
    missing.push(name);
    return '';
  });
  return { value, missing, missingInputs };
}

/** The expanded string and the names of variables that were referenced but not set (and had no default). */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): { value: string; missing: string[] } {
  const { value, missing } = expandVariables(text, { env });
  return { value, missing };
}

/** True when `text` contains a `${…}` reference (used to refuse host-env expansion for tenants). */
export function hasEnvReference(text: string): boolean {
  REFERENCE.lastIndex = 0;
  for (const match of text.matchAll(REFERENCE)) if (match[0] !== '$${') return true;
  return false;
}
