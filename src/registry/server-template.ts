/**
 * @module registry/server-template
 * Admin-defined stdio servers that tenants instantiate: the command, its arguments and environment
 * are fixed by the admin; tenants only fill typed parameters (`{{name}}` placeholders). Parameter
 * values are checked by type, pattern and length, may not start with `-`, `/`, `\` or `~` nor hold a `..`
 * path segment (no smuggled options or paths; a number is not negative) unless the pattern (or a
 * minimum below 0) allows it, and are never expanded from the gateway's environment (see
 * `registry/render-template`).
 *
 * @example
 * ```ts
 * await registry.templates.add('files', {
 *   command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/srv/data/{{folder}}'],
 *   parameters: [{ name: 'folder', type: 'string', pattern: '[a-z0-9-]{1,40}' }],
 * });
 * await registry.forUser(alice).addServer('my-files', { template: 'files', parameters: { folder: 'alice' } });
 * ```
 */

import { z } from 'zod';
import { ErrorCode, SwitchboardError } from '../errors.js';
import type { PolicyViolation } from './tenant-policy.js';

const scalar = z.union([z.string(), z.number(), z.boolean()]);
/** A `{{name}}` placeholder (global: use with `matchAll` / `replace`). */
export const TEMPLATE_PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
/** Longest parameter value accepted when the template does not say. @default 1024 */
export const DEFAULT_PARAMETER_MAX_LENGTH = 1024;

/** One typed parameter of a template. */
export const templateParameterSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a letter or _ followed by letters, digits or _'),
    type: z.enum(['string', 'number', 'integer', 'boolean', 'enum']).default('string'),
    description: z.string().optional(),
    /** @default true, unless a default is given */
    required: z.boolean().optional(),
    default: scalar.optional(),
    /** A regular expression the whole value must match (strings). */
    pattern: z.string().optional(),
    /** The allowed values (enum). */
    values: z.array(z.string()).min(1).optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    /** @default DEFAULT_PARAMETER_MAX_LENGTH */
    maxLength: z.number().int().positive().optional(),
    /** Stored encrypted and masked when shown (e.g. a tenant's API key). */
    secret: z.boolean().optional(),
  })
  .strict();
export type TemplateParameter = z.infer<typeof templateParameterSchema>;

/** A template as an admin defines it. */
export const serverTemplateSchema = z
  .object({
    description: z.string().optional(),
    command: z.string().min(1, 'must not be empty'),
    args: z.array(z.string()).default([]),
    /** Values may be fixed (admin secrets, stored encrypted) or `{{parameter}}`. */
    env: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'), z.string()).default({}),
    cwd: z.string().optional(),
    /** Host variables passed to the server (an admin's decision, not a tenant's). */
    inheritEnv: z.array(z.string()).optional(),
    timeout: z.union([z.number(), z.string()]).optional(),
    callTimeout: z.union([z.number(), z.string()]).optional(),
    parameters: z.array(templateParameterSchema).default([]),
  })
  .strict();
export type ServerTemplateDefinition = z.infer<typeof serverTemplateSchema>;
/** A template as given (defaults not yet applied). */
export type ServerTemplateInput = z.input<typeof serverTemplateSchema>;

/** What a tenant stores to instantiate a template. */
export const templateInstanceSchema = z
  .object({
    template: z.string().min(1),
    parameters: z.record(z.string(), scalar).default({}),
    description: z.string().optional(),
    timeout: z.union([z.number(), z.string()]).optional(),
    callTimeout: z.union([z.number(), z.string()]).optional(),
    prefix: z.string().optional(),
    include: z.array(z.string()).optional(),
    exclude: z.array(z.string()).optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type TemplateInstance = z.infer<typeof templateInstanceSchema>;

/** True when a stored entry instantiates a template. */
export function isTemplateInstance(entry: Readonly<Record<string, unknown>>): boolean {
  return typeof entry.template === 'string';
}

/** Validates a template definition; throws INVALID_ARGUMENT listing every problem. */
export function parseServerTemplate(raw: unknown, name: string): ServerTemplateDefinition {
  const parsed = serverTemplateSchema.safeParse(raw);
  const problems: string[] = [];
  if (!parsed.success) {
    problems.push(...parsed.error.issues.map((issue) => `${['template', name, ...issue.path.map(String)].join('.')}: ${issue.message}`));
    throw invalidTemplate(name, problems);
  }
  const template = parsed.data;
  const declared = new Set<string>();
  for (const parameter of template.parameters) {
    const at = `template.${name}.parameters.${parameter.name}`;
    if (declared.has(parameter.name)) problems.push(`${at}: declared twice`);
    declared.add(parameter.name);
    if (parameter.type === 'enum' && parameter.values === undefined) problems.push(`${at}: an enum needs \`values\``);
    if (parameter.pattern !== undefined) {
      try {
        new RegExp(parameter.pattern, 'u');
      } catch (error) {
        problems.push(`${at}.pattern: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (parameter.default !== undefined && problems.length === 0) {
      const problem = checkValue(parameter, parameter.default);
      if (problem !== undefined) problems.push(`${at}.default: ${problem}`);
    }
  }
  const used = [...template.args, ...Object.values(template.env), template.cwd ?? ''].flatMap((text) => [...text.matchAll(TEMPLATE_PLACEHOLDER)].map((match) => match[1] ?? ''));
  for (const placeholder of new Set(used)) {
    if (!declared.has(placeholder)) problems.push(`template.${name}: {{${placeholder}}} is used but no parameter declares it`);
  }
  if (template.cwd !== undefined && /\{\{/.test(template.cwd)) problems.push(`template.${name}.cwd: must be fixed (no parameters)`);
  if (/\{\{/.test(template.command)) problems.push(`template.${name}.command: must be fixed (no parameters)`);
  if (problems.length > 0) throw invalidTemplate(name, problems);
  return template;
}

/** Checks tenant values against the template: types, patterns, required, unknown names. */
export function checkParameters(template: ServerTemplateDefinition, values: Readonly<Record<string, unknown>>, templateName: string): { values: Record<string, string>; violations: PolicyViolation[] } {
  const violations: PolicyViolation[] = [];
  const result: Record<string, string> = {};
  const known = new Map(template.parameters.map((parameter) => [parameter.name, parameter]));
  for (const name of Object.keys(values)) {
    if (!known.has(name)) {
      violations.push({
        rule: 'template',
        message: `template "${templateName}" has no parameter "${name}"`,
        hint: template.parameters.length === 0 ? 'it takes no parameters' : `its parameters are ${template.parameters.map((parameter) => parameter.name).join(', ')}`,
      });
    }
  }
  for (const parameter of template.parameters) {
    const given = values[parameter.name];
    const value = given ?? parameter.default;
    if (value === undefined) {
      if (parameter.required !== false) violations.push({ rule: 'template', message: `parameter "${parameter.name}" of template "${templateName}" is required` });
      continue;
    }
    const problem = checkValue(parameter, value);
    if (problem !== undefined) violations.push({ rule: 'template', message: `parameter "${parameter.name}" of template "${templateName}" ${problem}` });
    // A number in its plain form (`0x10` → 16, `1e3` → 1000): what was checked is what the server gets.
    else result[parameter.name] = parameter.type === 'number' || parameter.type === 'integer' ? String(Number(value)) : String(value);
  }
  return { values: result, violations };
}

function checkValue(parameter: TemplateParameter, value: unknown): string | undefined {
  switch (parameter.type) {
    case 'boolean':
      if (typeof value === 'boolean' || value === 'true' || value === 'false') return undefined;
      return 'must be true or false';
    case 'number':
    case 'integer': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      if (!Number.isFinite(number)) return 'must be a number';
      if (parameter.type === 'integer' && !Number.isInteger(number)) return 'must be an integer';
      if (parameter.minimum !== undefined && number < parameter.minimum) return `must be at least ${parameter.minimum}`;
      if (parameter.maximum !== undefined && number > parameter.maximum) return `must be at most ${parameter.maximum}`;
      // `-5` as an argument reads as an option; only a template that says it takes negatives gets them.
      if (number < 0 && (parameter.minimum === undefined || parameter.minimum >= 0)) return 'must not be negative (a template that takes negative numbers says so with a minimum below 0)';
      return undefined;
    }
    case 'enum':
      return typeof value === 'string' && (parameter.values ?? []).includes(value) ? undefined : `must be one of ${(parameter.values ?? []).join(', ')}`;
    case 'string': {
      if (typeof value !== 'string') return 'must be a string';
      const maxLength = parameter.maxLength ?? DEFAULT_PARAMETER_MAX_LENGTH;
      if (value.length > maxLength) return `must be at most ${maxLength} characters`;
      // Control characters (newlines included) have no business in an argument or env value.
      if (/\p{Cc}/u.test(value)) return 'must not contain control characters';
      if (parameter.pattern !== undefined) {
        return new RegExp(`^(?:${parameter.pattern})$`, 'u').test(value) ? undefined : `does not match the pattern ${parameter.pattern}`;
      }
      // Without a pattern that says otherwise, a value cannot become an option of the command, an absolute
      // or home path, or climb out of the folder the template puts it in (`/srv/data/{{folder}}`).
      const first = ['-', '/', '\\', '~'].find((character) => value.startsWith(character));
      if (first !== undefined) return `must not start with "${first}"`;
      if (/(?:^|[\\/])\.\.(?:[\\/]|$)/.test(value)) return 'must not contain a ".." path segment';
      return undefined;
    }
  }
}

/** Names of the template's secret parameters. */
export function secretParameterNames(template: ServerTemplateDefinition): Set<string> {
  return new Set(template.parameters.filter((parameter) => parameter.secret === true).map((parameter) => parameter.name));
}

function invalidTemplate(name: string, problems: string[]): SwitchboardError {
  return new SwitchboardError(ErrorCode.InvalidArgument, `template "${name}" is invalid:\n${problems.map((problem) => `  ${problem}`).join('\n')}`, { details: { problems } });
}
