/**
 * @module config/detect-transport
 * One `path` string to a transport, as Khoj does — but with Streamable HTTP, quoting and clear errors.
 *
 * - `http(s)://…` → Streamable HTTP with automatic fallback to legacy SSE
 * - `*.py` → `python3 FILE`; `*.js|*.mjs|*.cjs` → `node FILE` (the Node running us)
 * - a path to a file (contains `/`, or starts with `.` or `~`) → run it
 * - a known launcher (`node`, `python3`, `uvx`, `npx`, `docker`, …) → run it
 * - anything else is an npm package spec (`name`, `@scope/name`, `name@version`) → `npx -y SPEC`
 * Words after the first are arguments.
 */

import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { splitCommandLine } from './split-command-line.js';

/** What a `path` resolves to. */
export type DetectedTransport =
  | { type: 'http'; url: string }
  | { type: 'stdio'; command: string; args: string[]; detectedAs: 'python' | 'node' | 'npm' | 'executable' };

/** Commands run as they are rather than through npx. */
const KNOWN_LAUNCHERS = new Set([
  'node', 'nodejs', 'python', 'python3', 'uv', 'uvx', 'pipx', 'npx', 'pnpm', 'bunx', 'bun', 'deno', 'docker',
  'podman', 'java', 'go', 'cargo', 'ruby', 'php', 'dotnet', 'sh', 'bash',
]);
const NPM_SPEC = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(?:@[^\s/]+)?$/;

/** Resolves `path` (relative file paths against `baseDir`). */
export function detectTransport(path: string, baseDir: string): DetectedTransport | { error: string; hint?: string } {
  const trimmed = path.trim();
  if (trimmed === '') return { error: 'is empty', hint: 'write a URL, a .py or .js file, an npm package or a command' };
  if (/^https?:\/\//i.test(trimmed)) {
    try {
      return { type: 'http', url: new URL(trimmed).toString() };
    } catch {
      return { error: `"${trimmed}" is not a valid URL` };
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) {
    return { error: `unsupported URL scheme in "${trimmed.split('://')[0]}://"`, hint: 'use http:// or https://' };
  }
  const split = splitCommandLine(trimmed);
  if ('error' in split) return { error: split.error };
  const [first, ...rest] = split.words;
  if (first === undefined) return { error: 'is empty' };
  const lower = first.toLowerCase();
  if (lower.endsWith('.py')) return { type: 'stdio', command: 'python3', args: [resolveFile(first, baseDir), ...rest], detectedAs: 'python' };
  if (/\.(?:m|c)?js$/.test(lower)) {
    return { type: 'stdio', command: process.execPath, args: [resolveFile(first, baseDir), ...rest], detectedAs: 'node' };
  }
  if (looksLikeFilePath(first)) return { type: 'stdio', command: resolveFile(first, baseDir), args: rest, detectedAs: 'executable' };
  if (KNOWN_LAUNCHERS.has(lower)) return { type: 'stdio', command: first, args: rest, detectedAs: 'executable' };
  if (NPM_SPEC.test(first)) return { type: 'stdio', command: 'npx', args: ['-y', first, ...rest], detectedAs: 'npm' };
  return { error: `cannot tell how to start "${first}"`, hint: 'use a URL, a .py/.js file, an npm package name, or give `command` and `args`' };
}

function looksLikeFilePath(word: string): boolean {
  if (word.startsWith('@')) return false; // scoped npm package
  return word.startsWith('.') || word.startsWith('~') || word.includes('/') || word.includes('\\') || isAbsolute(word);
}

function resolveFile(file: string, baseDir: string): string {
  if (file === '~' || file.startsWith('~/')) return resolve(homedir(), file.slice(2));
  return resolve(baseDir, file);
}
