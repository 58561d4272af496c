/**
 * @module client/catalog/suggest-names
 * "Did you mean" for a mistyped tool name: candidates that contain it (or it them), that are a few
 * edits away (`read_txt_file` → `read_text_file`), or that share its words in another order
 * (`directory_list` → `list_directory`). Best first.
 */

/** One name that may be suggested, and the other spellings it is matched by (e.g. its original name). */
export interface SuggestionCandidate {
  name: string;
  also?: readonly string[];
}

/** Up to `limit` candidate names close to `query`, best first. */
export function suggestNames(query: string, candidates: readonly SuggestionCandidate[], limit = 5): string[] {
  const wanted = query.toLowerCase();
  if (wanted === '') return [];
  const scored: Array<{ name: string; score: number; order: number }> = [];
  candidates.forEach((candidate, order) => {
    let best = Number.POSITIVE_INFINITY;
    for (const spelling of [candidate.name, ...(candidate.also ?? [])]) best = Math.min(best, closeness(wanted, spelling.toLowerCase()));
    if (Number.isFinite(best)) scored.push({ name: candidate.name, score: best, order });
  });
  scored.sort((a, b) => a.score - b.score || a.order - b.order);
  return [...new Set(scored.map((item) => item.name))].slice(0, limit);
}

/**
 * Lower is closer; Infinity means unrelated. Containment ranks first, then edit distance (relative to
 * length), then the same words in another order.
 */
function closeness(query: string, candidate: string): number {
  if (query === candidate) return 0;
  const shorter = Math.min(query.length, candidate.length);
  if (shorter >= 3 && (candidate.includes(query) || query.includes(candidate))) return 0.1;
  const longest = Math.max(query.length, candidate.length);
  // About one edit per four characters: typos and singular/plural, not different words.
  const allowed = Math.max(1, Math.floor(longest / 4));
  const distance = editDistance(query, candidate, allowed);
  if (distance <= allowed) return 1 + distance / longest;
  const overlap = wordOverlap(query, candidate);
  return overlap >= 1 ? 3 : Number.POSITIVE_INFINITY;
}

/** Words of a name: split at `_`, `-`, `.`, spaces and lowercase→uppercase steps. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_.\-/]+/)
    .filter((word) => word !== '');
}

/** The share of the query's words found in the candidate (each allowed one typo from four letters on). */
function wordOverlap(query: string, candidate: string): number {
  const wanted = wordsOf(query);
  const offered = wordsOf(candidate);
  if (wanted.length < 2 || offered.length < 2) return 0;
  const found = wanted.filter((word) => offered.some((other) => other === word || (Math.min(word.length, other.length) >= 4 && editDistance(word, other, 1) <= 1)));
  return found.length / Math.max(wanted.length, offered.length);
}

/**
 * Optimal-string-alignment distance (insert, delete, substitute, swap two neighbours), giving up
 * once it exceeds `bound` (returns `bound + 1`).
 */
export function editDistance(a: string, b: string, bound = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > bound) return bound + 1;
  let twoBack: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (twoBack[j - 2] ?? 0) + 1);
      current.push(value);
      rowBest = Math.min(rowBest, value);
    }
    if (rowBest > bound) return bound + 1;
    twoBack = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
