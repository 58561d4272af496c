/**
 * @module config/expand-env
 * `${VAR}`, `${VAR:-default}` and VS Code's `${env:VAR}` in config strings. `$${` escapes a literal `${`.
 */

const REFERENCE = /\$\$\{|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The expanded string and the names of variables that were referenced but not set (and had no default). */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): { value: string; missing: string[] } {
  const missing: string[] = [];
  const value = text.replace(REFERENCE, (whole, name: string | undefined, fallback: string | undefined) => {
    if (whole === '$${') return '${';
    if (name === undefined) return whole;
    const found = env[name];
    if (found !== undefined && found !== '') return found;
    if (fallback !== undefined) return fallback;
    if (found === '') return '';
    missing.push(name);
    return '';
  });
  return { value, missing };
}

/** True when `text` contains a `${…}` reference (used to refuse host-env expansion for tenants). */
export function hasEnvReference(text: string): boolean {
  REFERENCE.lastIndex = 0;
  for (const match of text.matchAll(REFERENCE)) if (match[0] !== '$${') return true;
  return false;
}
