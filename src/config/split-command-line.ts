/**
 * @module config/split-command-line
 * Shell-style word splitting for `path: "server.py --flag 'two words'"`. Never runs a shell: quotes
 * and backslashes group words, nothing else is interpreted (no globs, variables or pipes).
 */

/** The words of `line`, or an error naming the unbalanced quote. */
export function splitCommandLine(line: string): { words: string[] } | { error: string } {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let index = 0; index < line.length; index++) {
    const char = line.charAt(index);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else current += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (line[index + 1] === '"' || line[index + 1] === '\\')) current += line.charAt(++index);
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < line.length) {
      current += line.charAt(++index);
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote !== undefined) return { error: `unbalanced ${quote === '"' ? 'double' : 'single'} quote` };
  if (inWord) words.push(current);
  return { words };
}
