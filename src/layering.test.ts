/**
 * The folder layering of `src/` (docs/architecture.md), enforced: every import between folders must
 * be an edge of {@link ALLOWED} (downward only), the folders must not form a cycle, the gateway
 * reaches the registry and the pool only through their index, and the dashboard knows the server
 * only through the API contract. Reads the import statements of every non-test source file.
 * `LAYERING_SRC=/some/src` checks another tree (e.g. an older commit's, to see the test fail).
 */

import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const SRC = process.env.LAYERING_SRC ?? dirname(fileURLToPath(import.meta.url));

/** The files at the top of `src/` other than the entry: errors, logger, version — the floor everyone stands on. */
const BASE = '(base)';
/** `src/index.ts`, the package's public entry: it re-exports from every folder. */
const ENTRY = '(entry)';

/**
 * Which folders each folder may import (besides itself). Lowest first; an edge only ever points to a
 * folder listed earlier, which is what makes the order a layering.
 */
const ALLOWED: Record<string, readonly string[]> = {
  [BASE]: [],
  util: [BASE],
  result: [BASE],
  metrics: [BASE, 'util', 'result'],
  contract: ['result', 'metrics'],
  config: [BASE, 'util'],
  auth: [BASE, 'util', 'config'],
  connection: [BASE, 'util', 'result', 'metrics', 'config', 'auth'],
  client: [BASE, 'util', 'result', 'metrics', 'config', 'connection'],
  registry: [BASE, 'util', 'result', 'metrics', 'config', 'auth', 'connection', 'client'],
  pool: [BASE, 'util', 'result', 'metrics', 'config', 'auth', 'connection', 'client', 'registry'],
  login: [BASE, 'util', 'config', 'auth', 'connection'],
  diagnose: [BASE, 'util', 'config', 'connection'],
  adapters: [BASE, 'util', 'result', 'config', 'connection', 'client'],
  gateway: [BASE, 'util', 'result', 'metrics', 'contract', 'config', 'auth', 'connection', 'client', 'registry', 'pool', 'login'],
  [ENTRY]: [BASE, 'util', 'result', 'metrics', 'config', 'auth', 'connection', 'client'],
  // The conformance client drives the package as a consumer would: through its public entry.
  cli: [BASE, ENTRY, 'util', 'result', 'metrics', 'config', 'auth', 'connection', 'client', 'registry', 'pool', 'login', 'diagnose', 'adapters', 'gateway'],
  dashboard: ['contract'],
};

/** Folders whose files others reach only through the folder's `index.ts`, and who is held to it. */
const THROUGH_INDEX: Record<string, readonly string[]> = { registry: ['gateway'], pool: ['gateway'] };

/** What the gateway may use of `connection/`: protocol types. Calls go through the client (MultiServerClient). */
const GATEWAY_CONNECTION_FILES = ['connection/mcp-types.ts', 'connection/progress-update.ts'];

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
  /** `export … from` (a re-export), not an import. */
  reexport: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && entry.name !== 'vite.config.ts' ? [path] : [];
  });
}

/** The text with comments blanked out (strings kept), so `@example` code in a doc comment is not read as an import. */
function withoutComments(text: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] as string;
    if (quote !== undefined) {
      out += char;
      if (char === '\\') out += text[++i] ?? '';
      else if (char === quote) quote = undefined;
    } else if (char === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
      out += ' ';
    } else {
      if (char === "'" || char === '"' || char === '`') quote = char;
      out += char;
    }
  }
  return out;
}

function importsOf(file: string): Import[] {
  const text = withoutComments(readFileSync(file, 'utf8'));
  const from = relative(SRC, file).split(sep).join('/');
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean, reexport: boolean): void => {
    if (!specifier.startsWith('.')) return;
    const target = normalize(join(dirname(file), specifier)).replace(/\.js$/, '.ts');
    const to = relative(SRC, target).split(sep).join('/');
    found.push({ from, to: to.endsWith('.ts') || to.endsWith('.tsx') ? to : `${to}.ts`, typeOnly, reexport });
  };
  for (const match of text.matchAll(/\b(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g)) {
    const names = match[3] ?? '';
    const everyNameTyped = /^\{[^}]*\}$/.test(names.trim()) && names.replace(/[{}\s]/g, '') !== '' && names.replace(/[{}]/g, '').split(',').every((name) => name.trim() === '' || /^type\s/.test(name.trim()));
    add(match[4] as string, match[2] !== undefined || everyNameTyped, match[1] === 'export');
  }
  for (const match of text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bimport\s+['"]([^'"]+)['"]/g)) add((match[1] ?? match[2]) as string, false, false);
  return found;
}

function folderOf(path: string): string {
  const slash = path.indexOf('/');
  if (slash !== -1) return path.slice(0, slash);
  return path === 'index.ts' ? ENTRY : BASE;
}

/** The source files of the package's subpath entries (package.json `exports`), whose re-exports shape the public API. */
function publicEntries(): Set<string> {
  const pkg = JSON.parse(readFileSync(join(SRC, '..', 'package.json'), 'utf8')) as { exports: Record<string, string | { default?: string }> };
  const entries = new Set<string>();
  for (const target of Object.values(pkg.exports)) {
    const path = typeof target === 'string' ? target : target.default;
    const match = path === undefined ? null : /^\.\/dist\/(.+)\.js$/.exec(path);
    if (match !== null) entries.add(`${match[1]}.ts`);
  }
  return entries;
}

/** Every import that breaks a rule, as `from → to: why`. */
function violations(): string[] {
  const entries = publicEntries();
  const problems: string[] = [];
  for (const file of sourceFiles(SRC)) {
    for (const edge of importsOf(file)) {
      const key = `${edge.from} → ${edge.to}`;
      const a = folderOf(edge.from);
      const b = folderOf(edge.to);
      if (a === b) continue;
      // A subpath entry may re-export public names from any folder: that is the package's shape, not a dependency.
      if (edge.reexport && entries.has(edge.from)) continue;
      const allowed = ALLOWED[a];
      if (allowed === undefined) problems.push(`${key}: folder "${a}" has no row in ALLOWED`);
      else if (!allowed.includes(b)) problems.push(`${key}: "${a}" may not import "${b}"`);
      if (THROUGH_INDEX[b]?.includes(a) === true && edge.to !== `${b}/index.ts`) problems.push(`${key}: "${a}" reaches "${b}" only through ${b}/index.ts`);
      if (a === 'gateway' && b === 'connection' && !GATEWAY_CONNECTION_FILES.includes(edge.to)) problems.push(`${key}: the gateway uses the client, not connections (only ${GATEWAY_CONNECTION_FILES.join(', ')})`);
      if (a === 'contract' && !edge.typeOnly) problems.push(`${key}: the API contract imports types only`);
    }
  }
  return problems;
}

/** Folder cycles in the imports actually made (re-exports of public entries aside), as `a → b → a`. */
function folderCycles(): string[] {
  const entries = publicEntries();
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(SRC)) {
    for (const edge of importsOf(file)) {
      if (edge.reexport && entries.has(edge.from)) continue;
      const a = folderOf(edge.from);
      const b = folderOf(edge.to);
      if (a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b));
    }
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (folder: string, path: string[]): void => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'open') {
      cycles.push([...path.slice(path.indexOf(folder)), folder].join(' → '));
      return;
    }
    state.set(folder, 'open');
    for (const next of graph.get(folder) ?? []) visit(next, [...path, folder]);
    state.set(folder, 'done');
  };
  for (const folder of graph.keys()) visit(folder, []);
  return cycles;
}

test('the table of allowed folder edges is itself a layering: each folder imports only folders listed before it', () => {
  const order = Object.keys(ALLOWED);
  const upward = order.flatMap((folder, index) => (ALLOWED[folder] ?? []).filter((target) => !order.slice(0, index).includes(target)).map((target) => `${folder} → ${target}`));
  expect(upward).toEqual([]);
});

test('every import between folders goes downward, and the gateway reaches the registry and the pool through their index', () => {
  expect(violations()).toEqual([]);
});

test('no cycle between folders', () => {
  expect(folderCycles()).toEqual([]);
});

test('the dashboard is typed against the API contract alone', () => {
  const dashboard = sourceFiles(join(SRC, 'dashboard')).flatMap(importsOf).filter((edge) => !edge.to.startsWith('dashboard/'));
  expect(dashboard.length).toBeGreaterThan(0);
  expect(dashboard.filter((edge) => edge.to !== 'contract/api-contract.ts').map((edge) => `${edge.from} → ${edge.to}`)).toEqual([]);
});
