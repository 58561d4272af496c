/**
 * @module client/catalog/glob
 * `include` / `exclude` patterns for tool names: `*` is any run of characters, `?` one character,
 * everything else literal. Case-sensitive, like tool names.
 */

/** A predicate for a list of glob patterns (true when any matches). */
export function globMatcher(patterns: readonly string[]): (name: string) => boolean {
  const regexes = patterns.map(globToRegExp);
  return (name) => regexes.some((regex) => regex.test(name));
}

/** The anchored regular expression of one glob pattern. */
export function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}
