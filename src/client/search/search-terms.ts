/**
 * @module client/search/search-terms
 * How tool text becomes search terms: identifiers split into words (`read_text_file`, `getFileInfo`,
 * `resolve-library-id`, `fs__read_file`, `browser_take_screenshot2`), lower-cased, English filler words
 * dropped, and a light suffix stemmer so "reading files", "read file" and `read_file` meet. The same
 * steps run over the index and over queries; queries also expand a few everyday verbs to the words
 * tool authors use for them (see {@link QUERY_SYNONYMS}).
 */

/** Words too common in requests and descriptions to tell tools apart. */
const STOP_WORDS = new Set([
  'a', 'an', 'the', 'of', 'to', 'in', 'into', 'on', 'onto', 'for', 'with', 'and', 'or', 'is', 'are', 'be', 'been', 'was', 'were',
  'this', 'that', 'these', 'those', 'it', 'its', 'by', 'from', 'as', 'at', 'me', 'my', 'i', 'you', 'your', 'we', 'our', 'us',
  'can', 'could', 'would', 'should', 'will', 'please', 'do', 'does', 'so', 'if', 'then', 'than', 'there', 'here', 'what',
  'which', 'who', 'how', 'some', 'any', 'about', 'want', 'need', 'like', 'let', 'just', 'also', 'use', 'using', 'used',
  'tool', 'tools', 'via', 'up', 'out', 'now', 'one', 'e', 'g', 'eg', 'etc',
]);

/**
 * Everyday words in requests → the words tool definitions tend to use. Kept small and generic (verbs of
 * file, browser and repository work); a term maps to itself plus these.
 */
export const QUERY_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  remove: ['delete'],
  erase: ['delete'],
  delete: ['remove'],
  rename: ['move'],
  make: ['create'],
  new: ['create'],
  add: ['create'],
  open: ['navigate', 'new'],
  visit: ['navigate'],
  go: ['navigate'],
  load: ['navigate'],
  browse: ['navigate'],
  url: ['navigate'],
  website: ['page'],
  site: ['page'],
  web: ['page', 'browser'],
  tab: ['page'],
  find: ['search'],
  look: ['search'],
  lookup: ['search'],
  show: ['list', 'get'],
  view: ['list', 'get'],
  fetch: ['get'],
  retrieve: ['get'],
  execute: ['run', 'evaluate'],
  run: ['evaluate', 'query'],
  js: ['javascript'],
  picture: ['screenshot'],
  capture: ['screenshot', 'snapshot'],
  folder: ['directory'],
  folders: ['directory'],
  dir: ['directory'],
  ls: ['list', 'directory'],
  repo: ['repository'],
  repos: ['repository'],
  pr: ['pull', 'request'],
  prs: ['pull', 'request'],
  bug: ['issue'],
  ticket: ['issue'],
  docs: ['documentation'],
  database: ['sql', 'query'],
  db: ['sql', 'query'],
  table: ['sql'],
  type: ['fill'],
  enter: ['type', 'fill'],
  log: ['console'],
  logs: ['console'],
};

/** Splits text into raw words: on non-alphanumerics, camelCase humps and letter/digit edges. */
export function splitWords(text: string): string[] {
  const spaced = text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2');
  return spaced.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/** The index terms of one piece of text (stop words dropped, stemmed). */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const word of splitWords(text)) {
    const term = toTerm(word);
    if (term !== undefined) terms.push(term);
  }
  return terms;
}

/** Words already turned into terms: a catalog repeats a small vocabulary, so indexing mostly hits this. */
const termCache = new Map<string, string | null>();
const TERM_CACHE_SIZE = 50_000;

/** One word as a term, or undefined for a stop word. */
export function toTerm(word: string): string | undefined {
  const known = termCache.get(word);
  if (known !== undefined) return known ?? undefined;
  const lower = word.toLowerCase();
  const term = STOP_WORDS.has(lower) ? null : stem(lower);
  if (termCache.size >= TERM_CACHE_SIZE) termCache.clear();
  termCache.set(word, term);
  return term ?? undefined;
}

/** A query word as its terms: itself and its synonyms, stemmed; empty for a stop word. */
export function queryTermsOf(word: string): string[] {
  const lower = word.toLowerCase();
  if (STOP_WORDS.has(lower)) return [];
  const terms = new Set([stem(lower)]);
  for (const synonym of QUERY_SYNONYMS[lower] ?? []) terms.add(stem(synonym));
  return [...terms];
}

/**
 * A light English suffix stemmer: enough that plurals, -ing, -ed and -ation forms share a stem with
 * their base word (`files`/`file`, `creating`/`created`/`create`/`creation`). Short words are left alone.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let result = word;
  if (result.endsWith('ies') && result.length > 4) result = `${result.slice(0, -3)}y`;
  else if (result.endsWith('sses')) result = result.slice(0, -2);
  else if (result.endsWith('s') && !result.endsWith('ss') && !result.endsWith('us') && !result.endsWith('is')) result = result.slice(0, -1);
  let cut = false;
  if (result.endsWith('ing') && result.length > 5) {
    result = result.slice(0, -3);
    cut = true;
  } else if (result.endsWith('ed') && result.length > 4) {
    result = result.slice(0, -2);
    cut = true;
  } else if (result.endsWith('ation') && result.length > 7) {
    result = result.slice(0, -3);
  }
  if (cut && /([b-df-hj-np-tv-z])\1$/.test(result)) result = result.slice(0, -1);
  if (result.endsWith('e') && result.length > 3) result = result.slice(0, -1);
  return result;
}
