/**
 * @module config/normalize-config
 * parse → normalize → rules, as changesets does: every problem is collected and reported at once as
 * `dotted.path: message`, warnings (unknown keys, disabled servers) apart from errors. Values of `env`,
 * `headers` and `apiKey` are never echoed.
 */

import { resolve } from 'node:path';
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from '../errors.js';
import { inputDeclarations, inputValues, referencedInputs } from './config-inputs.js';
import { entryDepthIssue } from './entry-depth.js';
import { configSchemas } from './config-schemas.js';
import { detectTransport } from './detect-transport.js';
import { expandEntry, type ExpansionContext } from './expand-entry.js';
import { normalizeOAuthEntry } from './normalize-oauth.js';
import { durationField, policyFields, protocolField } from './normalize-policies.js';
import { isPlainServerEntry, isPlainTopLevel } from './quick-check.js';
import { SERVER_ENTRY_KEYS, SERVER_ENTRY_KEY_HINTS, TOP_LEVEL_KEYS, type ServerEntry } from './schema.js';
import { isPackageRunner } from './package-runner.js';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_FIRST_START_TIMEOUT_MS, DEFAULT_STARTUP_TIMEOUT_MS, type ExternalAuthorizationConfig, type ServerSpec, type SwitchboardConfig } from './server-spec.js';
import { unresolvedServerSpec } from './unresolved-server-spec.js';
import { vscodeVariables } from './vscode-variables.js';

/** Where a config came from and what it may read. */
export interface NormalizeConfigOptions {
  /** Relative paths (`./server.py`, `cwd`) resolve against this. @default process.cwd() */
  baseDir?: string;
  /**
   * Variables for `${VAR}` expansion (plus `${configDir}` and VS Code's `${workspaceFolder}`, the
   * folder of the config), and `SWITCHBOARD_INPUT_<ID>` for inputs. @default process.env
   */
  env?: Readonly<Record<string, string | undefined>>;
  /** Values of `${input:ID}` (VS Code `inputs`), by id; they win over the environment. */
  inputs?: Readonly<Record<string, string>>;
  /** Named in error messages, e.g. the file path. */
  source?: string;
}

/** A valid config and the warnings found on the way. */
export interface NormalizedConfig {
  config: SwitchboardConfig;
  warnings: ConfigIssue[];
}

/**
 * Validates and normalizes a config object (the parsed file, or what a program passes to
 * `MultiServerClient.connect`). Throws {@link ConfigError} listing every problem.
 */
export function normalizeConfig(raw: unknown, options: NormalizeConfigOptions = {}): NormalizedConfig {
  const baseDir = options.baseDir ?? process.cwd();
  const env = options.env ?? process.env;
  const errors: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];

  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(
      [{ path: '', message: 'must be an object', hint: 'write `mcpServers: { name: { command: …, args: [...] } }`' }],
      [],
      options.source,
    );
  }
  const top = raw as Record<string, unknown>;
  for (const key of Object.keys(top)) {
    if (!TOP_LEVEL_KEYS.has(key)) warnings.push({ path: key, message: 'unknown option, ignored' });
  }
  const parsedTop = isPlainTopLevel(top) ? ({ success: true, data: top as { naming?: 'on-conflict' | 'prefix' | 'none'; onServerError?: 'skip' | 'throw'; maxConcurrentStarts?: number; authorization?: ExternalAuthorizationConfig } } as const) : configSchemas().topLevelSchema.safeParse(top);
  if (!parsedTop.success) errors.push(...zodIssues(parsedTop.error, ''));
  const naming = parsedTop.success ? (parsedTop.data.naming ?? 'on-conflict') : 'on-conflict';
  const onServerError = parsedTop.success ? (parsedTop.data.onServerError ?? 'skip') : 'skip';

  const maps: Array<[string, Record<string, unknown>]> = [];
  for (const key of ['mcpServers', 'servers'] as const) {
    const value = top[key];
    if (value !== undefined && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      maps.push([key, value as Record<string, unknown>]);
    }
  }
  if (maps.length === 0 && errors.length === 0) {
    errors.push({ path: 'mcpServers', message: 'no servers configured', hint: 'add `mcpServers: { name: { path: "…" } }`' });
  }

  const declaredInputs = inputDeclarations(top.inputs, errors);
  const expansion: ExpansionContext = {
    env,
    // `${configDir}` (and VS Code's `${workspaceFolder}`) is the folder of the config file.
    predefined: { ...vscodeVariables(baseDir), configDir: baseDir },
    inputs: inputValues(referencedInputs(maps.map(([, entries]) => entries)), options.inputs ?? {}, env),
    declaredInputs,
  };
  // A file's servers start in its folder, where its relative paths point (a program's, where it runs).
  const defaultCwd = options.baseDir;
  const servers: ServerSpec[] = [];
  const seen = new Map<string, string>();
  for (const [mapKey, entries] of maps) {
    for (const [name, entry] of Object.entries(entries)) {
      const path = `${mapKey}.${name}`;
      const previous = seen.get(name);
      if (previous !== undefined) {
        errors.push({ path, message: `duplicate server name, also defined at ${previous}`, hint: 'rename one of them' });
        continue;
      }
      seen.set(name, path);
      if (name.trim() === '') {
        errors.push({ path, message: 'server name is empty' });
        continue;
      }
      const spec = normalizeServerEntry(name, entry, {
        path, baseDir, env, errors, warnings, expansion, onUnresolved: onServerError === 'skip' ? 'fail-server' : 'fail-config', ...(defaultCwd === undefined ? {} : { defaultCwd }),
      });
      if (spec !== undefined) servers.push(spec);
    }
  }

  if (errors.length > 0) {
    // The config fails anyway: list the unset variables too, in their place.
    const all = [...errors, ...servers.flatMap((spec) => spec.unresolved ?? [])];
    const order = (issue: ConfigIssue): number => [...seen.values()].findIndex((path) => issue.path === path || issue.path.startsWith(`${path}.`));
    throw new ConfigError(all.sort((a, b) => order(a) - order(b)), warnings, options.source);
  }
  const maxConcurrentStarts = parsedTop.success ? parsedTop.data.maxConcurrentStarts : undefined;
  const authorization = parsedTop.success ? parsedTop.data.authorization : undefined;
  return { config: { servers, naming, onServerError, ...(maxConcurrentStarts === undefined ? {} : { maxConcurrentStarts }), ...(authorization === undefined ? {} : { authorization }) }, warnings };
}

/** Where an entry sits and what it may read; its problems are pushed to `errors` and `warnings`. */
export interface EntryContext {
  path: string;
  baseDir: string;
  env: Readonly<Record<string, string | undefined>>;
  errors: ConfigIssue[];
  warnings: ConfigIssue[];
  /** Predefined variables and inputs beside `env`. @default env only */
  expansion?: ExpansionContext;
  /**
   * An unset variable or input: `fail-server` returns a spec marked `unresolved` (the server is
   * reported failed, the others start); `fail-config` makes it an error. @default 'fail-config'
   */
  onUnresolved?: 'fail-server' | 'fail-config';
  /** `cwd` of a process server without one. */
  defaultCwd?: string;
  /** Expand `${VAR}` from `env`. False for text that is final (a rendered template instance). @default true */
  expand?: boolean;
}

/** Normalizes one server entry; pushes issues into the context and returns undefined when it is invalid. */
export function normalizeServerEntry(name: string, rawEntry: unknown, context: EntryContext): ServerSpec | undefined {
  const { path, errors, warnings } = context;
  if (typeof rawEntry !== 'object' || rawEntry === null || Array.isArray(rawEntry)) {
    errors.push({ path, message: 'must be an object', hint: 'e.g. `{ "command": "npx", "args": ["-y", "pkg"] }` or `{ "url": "https://…" }`' });
    return undefined;
  }
  const tooDeep = entryDepthIssue(rawEntry, path);
  if (tooDeep !== undefined) {
    errors.push(tooDeep);
    return undefined;
  }
  const errorCountBefore = errors.length;
  for (const key of Object.keys(rawEntry)) {
    if (!SERVER_ENTRY_KEYS.has(key)) {
      const hint = SERVER_ENTRY_KEY_HINTS[key];
      warnings.push({ path: `${path}.${key}`, message: 'unknown key, ignored', ...(hint === undefined ? {} : { hint }) });
    }
  }
  const unresolved: ConfigIssue[] = [];
  // A rendered template instance is final text: expanding it again would run on tenant values.
  const expanded = context.expand === false ? rawEntry : expandEntry(rawEntry, path, context.expansion ?? { env: context.env }, unresolved);
  // An unset variable makes the rest meaningless (an empty URL is "invalid"); report only the cause.
  if (unresolved.length > 0) {
    if (context.onUnresolved === 'fail-server') return unresolvedServerSpec(name, rawEntry, unresolved);
    errors.push(...unresolved);
    return undefined;
  }
  const parsed = isPlainServerEntry(expanded) ? ({ success: true, data: expanded as ServerEntry } as const) : configSchemas().serverEntrySchema.safeParse(expanded);
  if (!parsed.success) {
    errors.push(...zodIssues(parsed.error, path));
    return undefined;
  }
  const entry = parsed.data;
  const enabled = entry.enabled ?? (entry.disabled === undefined ? true : !entry.disabled);
  if (!enabled) warnings.push({ path, message: 'disabled, not started' });

  const startupTimeoutMs = durationField(entry.timeout, `${path}.timeout`, DEFAULT_STARTUP_TIMEOUT_MS, errors);
  const callTimeoutMs = durationField(entry.callTimeout, `${path}.callTimeout`, DEFAULT_CALL_TIMEOUT_MS, errors);
  const protocol = protocolField(entry.protocol, `${path}.protocol`, errors);

  const requestedTransport = transportField(entry, path, errors);
  const sources = (['path', 'command', 'url'] as const).filter((key) => entry[key] !== undefined);
  if (sources.length === 0) {
    errors.push({ path, message: 'says nothing about how to reach the server', hint: 'add `path`, `command` (with `args`) or `url`' });
    return undefined;
  }
  if (sources.length > 1) {
    errors.push({ path, message: `has both ${sources.map((key) => `\`${key}\``).join(' and ')}`, hint: 'keep exactly one of them' });
    return undefined;
  }

  const policies = policyFields(entry, path, errors);
  const base = {
    name,
    enabled,
    startupTimeoutMs,
    callTimeoutMs,
    ...policies,
    ...(entry.prefix === undefined ? {} : { prefix: entry.prefix }),
    ...(entry.include === undefined ? {} : { include: entry.include }),
    ...(entry.exclude === undefined ? {} : { exclude: entry.exclude }),
    ...(entry.validateOutput === undefined ? {} : { validateOutput: entry.validateOutput }),
  };

  let target: { type: 'stdio'; command: string; args: string[] } | { type: 'http'; url: string } | undefined;
  if (entry.url !== undefined) {
    target = urlTarget(entry.url, `${path}.url`, errors);
  } else if (entry.command !== undefined) {
    if (entry.command.trim() === '') errors.push({ path: `${path}.command`, message: 'is empty' });
    else target = { type: 'stdio', command: entry.command, args: (entry.args ?? []).map(String) };
  } else if (entry.path !== undefined) {
    const detected = detectTransport(entry.path, context.baseDir);
    if ('error' in detected) {
      errors.push({ path: `${path}.path`, message: detected.error, ...(detected.hint === undefined ? {} : { hint: detected.hint }) });
    } else if (detected.type === 'http') {
      target = detected;
    } else {
      target = { type: 'stdio', command: detected.command, args: [...detected.args, ...(entry.args ?? []).map(String)] };
    }
  }
  if (target === undefined || errors.length > errorCountBefore) return undefined;

  if (target.type === 'http') {
    if (requestedTransport === 'stdio') {
      errors.push({ path: `${path}.transport`, message: 'is stdio but the server is a URL', hint: 'use `http` or `sse`, or remove `transport`' });
      return undefined;
    }
    for (const key of ['command', 'args', 'env', 'cwd', 'apiKeyEnv', 'inheritEnv'] as const) {
      if (entry[key] !== undefined) warnings.push({ path: `${path}.${key}`, message: 'applies to stdio servers only, ignored for a URL' });
    }
    const headers = { ...(entry.headers ?? {}) };
    if (entry.apiKey !== undefined) {
      const existing = Object.keys(headers).find((key) => key.toLowerCase() === 'authorization');
      if (existing !== undefined) {
        errors.push({ path: `${path}.apiKey`, message: 'conflicts with an Authorization header', hint: 'keep either `apiKey` or the header' });
        return undefined;
      }
      headers.Authorization = `Bearer ${entry.apiKey}`;
    }
    const oauth = normalizeOAuthEntry(entry.oauth, `${path}.oauth`, context.baseDir, errors);
    if (oauth !== undefined && Object.keys(headers).some((key) => key.toLowerCase() === 'authorization')) {
      errors.push({
        path: `${path}.oauth`,
        message: `conflicts with ${entry.apiKey === undefined ? 'an Authorization header' : '`apiKey`'}`,
        hint: 'OAuth sets the Authorization header itself; keep one of them',
      });
    }
    if (errors.length > errorCountBefore) return undefined;
    return {
      ...base,
      type: 'http',
      url: target.url,
      headers,
      transport: requestedTransport === 'sse' ? 'sse' : requestedTransport === 'http' ? 'http' : 'auto',
      protocol: protocol ?? 'auto',
      ...(oauth === undefined ? {} : { oauth }),
    };
  }

  if (requestedTransport === 'http' || requestedTransport === 'sse') {
    errors.push({
      path: `${path}.transport`,
      message: `is ${requestedTransport} but the server is started as a process`,
      hint: 'give `url` for a remote server, or remove `transport`',
    });
    return undefined;
  }
  if (entry.headers !== undefined) warnings.push({ path: `${path}.headers`, message: 'applies to URL servers only, ignored for stdio' });
  if (entry.oauth !== undefined) warnings.push({ path: `${path}.oauth`, message: 'applies to URL servers only, ignored for stdio' });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry.env ?? {})) env[key] = String(value);
  if (entry.apiKey !== undefined) {
    if (entry.apiKeyEnv === undefined) {
      errors.push({
        path: `${path}.apiKey`,
        message: 'a stdio server receives its key through an environment variable, but `apiKeyEnv` is missing',
        hint: 'add `apiKeyEnv: NAME_THE_SERVER_READS`',
      });
      return undefined;
    }
    env[entry.apiKeyEnv] = entry.apiKey;
  } else if (entry.apiKeyEnv !== undefined) {
    warnings.push({ path: `${path}.apiKeyEnv`, message: 'set but `apiKey` is not, ignored' });
  }
  return {
    ...base,
    type: 'stdio',
    command: target.command,
    args: target.args,
    env,
    ...(entry.cwd === undefined ? (context.defaultCwd === undefined ? {} : { cwd: context.defaultCwd }) : { cwd: resolve(context.baseDir, entry.cwd) }),
    inheritEnv: entry.inheritEnv ?? [],
    protocol: protocol ?? 'legacy',
    ...(entry.timeout === undefined && isPackageRunner(target.command, target.args) ? { firstStartTimeoutMs: DEFAULT_FIRST_START_TIMEOUT_MS } : {}),
  };
}

function urlTarget(url: string, path: string, errors: ConfigIssue[]): { type: 'http'; url: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    errors.push({ path, message: 'is not a valid URL', hint: 'write it in full, e.g. https://example.com/mcp' });
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    errors.push({ path, message: `uses ${parsed.protocol} which is not supported`, hint: 'use http:// or https://' });
    return undefined;
  }
  return { type: 'http', url: parsed.toString() };
}

function transportField(entry: ServerEntry, path: string, errors: ConfigIssue[]): 'stdio' | 'http' | 'sse' | undefined {
  const transport = entry.transport === undefined ? undefined : canonicalTransport(entry.transport);
  const type = entry.type === undefined ? undefined : canonicalTransport(entry.type);
  if (transport !== undefined && type !== undefined && transport !== type) {
    errors.push({ path: `${path}.type`, message: `says ${entry.type} but \`transport\` says ${entry.transport}`, hint: 'keep one' });
  }
  return transport ?? type;
}

function canonicalTransport(name: string): 'stdio' | 'http' | 'sse' {
  if (name === 'stdio' || name === 'sse') return name;
  return 'http';
}

/** zod issues as `dotted.path: message`, without the received values (they may be secrets). */
export function zodIssues(error: z.ZodError, basePath: string): ConfigIssue[] {
  return error.issues.flatMap((issue) => issueMessages(issue, basePath));
}

function issueMessages(issue: z.core.$ZodIssue, basePath: string): ConfigIssue[] {
  const path = [basePath, ...issue.path.map(String)].filter((part) => part !== '').join('.');
  // A union such as `false | { … }` given an object: report what is wrong inside the object branch.
  if (issue.code === 'invalid_union' && 'errors' in issue) {
    const nested = issue.errors.find((branch) => branch.length > 0 && branch.every((inner) => inner.path.length > 0));
    if (nested !== undefined) return nested.flatMap((inner) => issueMessages(inner, path));
  }
  let message = issue.message.replace(/^Invalid input: /, '');
  if (issue.code === 'invalid_value' && 'values' in issue) {
    message = `must be one of ${issue.values.map((item) => JSON.stringify(item)).join(', ')}`;
  } else if (issue.code === 'invalid_union' && 'errors' in issue) {
    const expected = [...new Set(issue.errors.flat().map((inner) => ('expected' in inner ? String(inner.expected) : undefined)).filter((item) => item !== undefined))];
    if (expected.length > 0) message = `expected ${expected.join(' | ')}`;
  }
  return [{ path, message }];
}
