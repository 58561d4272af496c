/**
 * @module registry/render-template
 * The config entry of a template instance. The admin's text is expanded (`${VAR}` from the
 * gateway's environment) piece by piece *before* the tenant's values go in; the values are then
 * inserted verbatim and the result is never expanded again. Escaping values instead is not enough:
 * two adjacent placeholders filled with `$` and `{VAR}` join into `${VAR}` (issue 14, finding 2).
 */

import { expandEnv } from '../config/expand-env.js';
import type { ConfigIssue } from '../errors.js';
import { TEMPLATE_PLACEHOLDER, type ServerTemplateDefinition } from './server-template.js';

/** What {@link renderTemplate} renders from. */
export interface RenderTemplateInput {
  template: ServerTemplateDefinition;
  /** The tenant's checked parameter values (strings, inserted as they are). */
  values: Readonly<Record<string, string>>;
  /** The template's env, secrets decrypted. */
  templateEnv: Readonly<Record<string, string>>;
  /** What the admin's `${VAR}` expand from (the gateway's environment). */
  hostEnv: Readonly<Record<string, string | undefined>>;
  /** The instance's own fields (`timeout`, `prefix`, `include`…): tenant text, taken verbatim. */
  overrides?: Readonly<Record<string, unknown>>;
  /** Prefix of issue paths, e.g. `servers.NAME`. */
  path: string;
}

/** The rendered entry (final text: normalize it without expansion) and the admin's unset `${VAR}`. */
export interface RenderedTemplate {
  entry: Record<string, unknown>;
  issues: ConfigIssue[];
}

const SOLE_PLACEHOLDER = /^\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

/**
 * Renders an instance: placeholders filled, arguments (and env entries) that are only an optional
 * parameter left out are dropped instead of passed as "".
 */
export function renderTemplate(input: RenderTemplateInput): RenderedTemplate {
  const { template, values, hostEnv, path } = input;
  const issues: ConfigIssue[] = [];
  const admin = (text: string, at: string): string => {
    const { value, missing } = expandEnv(text, hostEnv);
    for (const name of missing) issues.push({ path: at, message: `environment variable ${name} is not set`, hint: `set it, or write \${${name}:-default} in the template` });
    return value;
  };
  // Only the admin's pieces between placeholders are expanded; a `${` split by a placeholder stays literal.
  const fill = (text: string, at: string): string => {
    let result = '';
    let last = 0;
    for (const match of text.matchAll(TEMPLATE_PLACEHOLDER)) {
      result += admin(text.slice(last, match.index), at) + (values[match[1] ?? ''] ?? '');
      last = match.index + match[0].length;
    }
    return result + admin(text.slice(last), at);
  };
  const omitted = (text: string): boolean => {
    const sole = SOLE_PLACEHOLDER.exec(text)?.[1];
    return sole !== undefined && values[sole] === undefined;
  };
  const args = template.args.flatMap((arg, index) => (omitted(arg) ? [] : [fill(arg, `${path}.args.${index}`)]));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(input.templateEnv)) {
    if (!omitted(value)) env[key] = fill(value, `${path}.env.${key}`);
  }
  const duration = (value: number | string | undefined, key: string): Record<string, number | string> => (value === undefined ? {} : { [key]: typeof value === 'string' ? admin(value, `${path}.${key}`) : value });
  const entry: Record<string, unknown> = {
    command: admin(template.command, `${path}.command`),
    args,
    env,
    ...(template.cwd === undefined ? {} : { cwd: admin(template.cwd, `${path}.cwd`) }),
    ...(template.inheritEnv === undefined ? {} : { inheritEnv: [...template.inheritEnv] }),
    ...duration(template.timeout, 'timeout'),
    ...duration(template.callTimeout, 'callTimeout'),
    ...input.overrides,
  };
  return { entry, issues };
}
