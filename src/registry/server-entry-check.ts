/**
 * @module registry/server-entry-check
 * Whether a server entry may be stored, and the spec a stored one becomes: the entry's shape, the
 * template it instantiates (parameters checked, text rendered), and for a tenant the policy rules —
 * host files, host environment, URL schemes, stdio, and the remote address (DNS) of an HTTP server.
 * The same rules run again when a stored entry is turned into a spec, since a policy may tighten.
 */

import { normalizeServerEntry } from '../config/normalize-config.js';
import type { ServerSpec } from '../config/server-spec.js';
import { ConfigError, ErrorCode, SwitchboardError, type ConfigIssue } from '../errors.js';
import { hostFileIssues, processFieldViolations, STDIO_HINT } from './check-local-paths.js';
import { RECORD_NAME, checkName, type RegistryContext } from './registry-context.js';
import type { RegisteredServerKind, RegistryUser } from './registry-types.js';
import { renderTemplate } from './render-template.js';
import { checkParameters, isTemplateInstance, templateInstanceSchema, type TemplateInstance } from './server-template.js';
import type { LoadedTemplate, TemplateStore } from './template-store.js';
import { checkHostEnv, checkRemoteUrl, effectivePolicy, policyViolationError, type PolicyViolation, type TenantPolicy } from './tenant-policy.js';

/** An entry that passed {@link ServerEntryCheck.check}. */
export interface CheckedEntry {
  kind: RegisteredServerKind;
  template: LoadedTemplate | undefined;
  /** The entry without `enabled`/`disabled`. */
  entry: Record<string, unknown>;
  enabled: boolean | undefined;
  policy: TenantPolicy | undefined;
}

/** The entry rules of one registry. */
export class ServerEntryCheck {
  readonly #context: RegistryContext;
  readonly #templates: TemplateStore;

  constructor(context: RegistryContext, templates: TemplateStore) {
    this.#context = context;
    this.#templates = templates;
  }

  /**
   * The spec of a stored entry (`full`: its secrets merged back), checked again against the user's
   * current policy (it may have tightened since the entry was stored).
   */
  specOf(name: string, templateId: string | null, full: Record<string, unknown>, templates: ReadonlyMap<string, LoadedTemplate>, policy: TenantPolicy | undefined): ServerSpec {
    if (templateId !== null) {
      const template = templates.get(templateId);
      if (template === undefined) throw new SwitchboardError(ErrorCode.NotFound, 'its template no longer exists');
      const instance = templateInstanceSchema.parse(full);
      const { values, violations } = checkParameters(template.definition, instance.parameters, template.name);
      if (violations.length > 0) throw policyViolationError(violations, `server "${name}"`);
      // Rendered text is final: the admin's `${VAR}` were expanded, the tenant's values never are.
      return { ...this.#normalize(name, this.#renderInstance(name, template, values, instance, ['description']), {}, false), enabled: true };
    }
    if (policy !== undefined) {
      const fileIssues = hostFileIssues(full, `servers.${name}`);
      if (fileIssues.length > 0) throw new ConfigError(fileIssues, [], `server "${name}"`);
      const violations = staticViolations(full, policy, name);
      if (violations.length > 0) throw policyViolationError(violations, `server "${name}"`);
    }
    const spec = this.#normalize(name, full, policy === undefined || policy.allowHostEnv ? this.#context.env : {});
    if (policy !== undefined && spec.type === 'stdio' && !policy.allowStdio) {
      throw policyViolationError([stdioViolation()], `server "${name}"`);
    }
    return { ...spec, enabled: true };
  }


  /** Checks an entry before it is stored: its name, its shape, the template it instantiates and the tenant policy. */
  async check(user: RegistryUser | null, name: string, rawEntry: Readonly<Record<string, unknown>>): Promise<CheckedEntry> {
    checkName(name, RECORD_NAME, 'server');
    if (typeof rawEntry !== 'object' || rawEntry === null || Array.isArray(rawEntry)) {
      throw new SwitchboardError(ErrorCode.InvalidArgument, `the entry of server "${name}" must be an object`, { hint: 'e.g. { "url": "https://…" }' });
    }
    const { enabled: rawEnabled, disabled, ...entry } = rawEntry as Record<string, unknown>;
    const enabled = typeof rawEnabled === 'boolean' ? rawEnabled : typeof disabled === 'boolean' ? !disabled : undefined;
    const isTenant = user !== null && !user.isAdmin;
    const policy = isTenant ? effectivePolicy(await this.#context.globalPolicy(), user.policy) : undefined;
    const subject = `server "${name}"${user === null ? '' : ` for user "${user.name}"`}`;

    if (isTemplateInstance(entry)) {
      const parsed = templateInstanceSchema.safeParse(entry);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${[name, ...issue.path.map(String)].join('.')}: ${issue.message}`);
        const violations: PolicyViolation[] = problems.map((message) => ({ rule: 'template', message, hint: 'a template instance takes `template`, `parameters` and tool filters only' }));
        throw isTenant ? policyViolationError(violations, subject) : new SwitchboardError(ErrorCode.InvalidArgument, `${subject}: ${problems.join('; ')}`);
      }
      const template = await this.#templates.load({ name: parsed.data.template });
      if (template === undefined) {
        throw new SwitchboardError(ErrorCode.NotFound, `${subject}: there is no template "${parsed.data.template}"`, { hint: 'list templates with `switchboard templates list`' });
      }
      const { values, violations } = checkParameters(template.definition, parsed.data.parameters, template.name);
      if (violations.length > 0) {
        throw isTenant ? policyViolationError(violations, subject) : new SwitchboardError(ErrorCode.InvalidArgument, `${subject}: ${violations.map((violation) => violation.message).join('; ')}`);
      }
      this.#normalize(name, this.#renderInstance(name, template, values, parsed.data), {}, false);
      return { kind: 'template', template, entry: { ...parsed.data }, enabled, policy };
    }

    if (policy === undefined) {
      const spec = this.#normalize(name, entry, this.#context.env);
      return { kind: spec.type, template: undefined, entry, enabled, policy };
    }
    // Before anything is normalized (let alone read): a tenant names no file of the gateway host.
    const fileIssues = hostFileIssues(entry, `servers.${name}`);
    if (fileIssues.length > 0) throw new ConfigError(fileIssues, [], subject);
    const violations = staticViolations(entry, policy, name);
    // Normalizing with an empty environment: nothing of the gateway's can leak into a tenant's entry.
    let spec: ServerSpec | undefined;
    try {
      spec = this.#normalize(name, entry, policy.allowHostEnv ? this.#context.env : {});
    } catch (error) {
      // A policy refusal explains more than the config error it causes (an unset ${VAR}, a file: URL).
      if (violations.length > 0) throw policyViolationError(violations, subject);
      throw error;
    }
    if (spec.type === 'stdio' && !policy.allowStdio && !violations.some((violation) => violation.rule === 'stdio')) violations.push(stdioViolation());
    if (spec.type === 'http') violations.push(...(await checkRemoteUrl(new URL(spec.url), policy, this.#context.resolveHost)));
    if (violations.length > 0) throw policyViolationError(violations, subject);
    return { kind: spec.type, template: undefined, entry, enabled, policy };
  }


  /** The entry of a template instance, final text (see `registry/render-template`); throws CONFIG_INVALID for an unset admin `${VAR}`. */
  #renderInstance(name: string, template: LoadedTemplate, values: Record<string, string>, instance: TemplateInstance, extra: ReadonlyArray<keyof TemplateInstance> = []): Record<string, unknown> {
    const overrides = pick(instance, ['timeout', 'callTimeout', 'prefix', 'include', 'exclude', ...extra]);
    const { entry, issues } = renderTemplate({ template: template.definition, values, templateEnv: template.env, hostEnv: this.#context.env, overrides, path: `servers.${name}` });
    if (issues.length > 0) throw new ConfigError(issues, [], `server "${name}"`);
    return entry;
  }

  #normalize(name: string, entry: Record<string, unknown>, env: Readonly<Record<string, string | undefined>>, expand = true): ServerSpec {
    const errors: ConfigIssue[] = [];
    const warnings: ConfigIssue[] = [];
    const spec = normalizeServerEntry(name, entry, { path: `servers.${name}`, baseDir: this.#context.baseDir, env, errors, warnings, expand });
    // A config file may carry unknown keys (warned about); a registry entry is stored, so it may not.
    const unknownKeys = warnings.filter((warning) => warning.message === 'unknown key, ignored').map((warning) => ({ ...warning, message: 'unknown key' }));
    if (spec === undefined || errors.length > 0 || unknownKeys.length > 0) throw new ConfigError([...errors, ...unknownKeys], warnings, `server "${name}"`);
    return spec;
  }
}

function stdioViolation(): PolicyViolation {
  return {
    rule: 'stdio',
    message: 'tenants cannot register server processes (stdio)',
    hint: STDIO_HINT,
  };
}

/** The policy rules that need no DNS: host environment, fields naming host paths, URL schemes. */
function staticViolations(entry: Readonly<Record<string, unknown>>, policy: TenantPolicy, name: string): PolicyViolation[] {
  const violations: PolicyViolation[] = [];
  if (!policy.allowHostEnv) violations.push(...checkHostEnv(entry, name));
  violations.push(...processFieldViolations(entry, name, policy));
  for (const key of ['url', 'path'] as const) {
    const value = entry[key];
    if (typeof value !== 'string') continue;
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value.trim())?.[1]?.toLowerCase();
    // A one-letter "scheme" is a Windows drive (C:\…), which the stdio rule covers.
    if (scheme !== undefined && scheme.length > 1 && scheme !== 'http' && scheme !== 'https') {
      violations.push({ rule: 'url-scheme', message: `${name}.${key} uses the ${scheme}: scheme, which is not allowed`, hint: 'use an https:// URL' });
    }
  }
  return violations;
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const result: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) result[key] = source[key];
  return result;
}
