/**
 * Regenerates the "Folders and files" section of docs/architecture.md from the tree: one line per
 * source file of `src/` (tests and `.d.ts` aside), its text the first sentence of the
 * file's `@module` doc. Each folder keeps the paragraph the doc already gives it (written by hand);
 * a subfolder gets its own heading. `node scripts/architecture-map.mjs` rewrites the doc;
 * `--check` exits 1 when the doc is out of date.
 */

import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const docPath = join(root, 'docs', 'architecture.md');
const HEADING = '## Folders and files';
const MAX = 150;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The first sentence of a file's `@module` doc, cut at {@link MAX} characters. */
function summaryOf(file) {
  const text = readFileSync(join(src, file), 'utf8');
  const doc = /\/\*\*([\s\S]*?)\*\//.exec(text)?.[1] ?? '';
  const lines = doc.split('\n').map((line) => line.replace(/^\s*\*\s?/, '').trim());
  const start = lines.findIndex((line) => line.startsWith('@module'));
  if (start === -1) return '(no `@module` doc)';
  const body = lines.slice(start + 1).join(' ').replace(/\{@link ([^}]+)\}/g, '`$1`').replace(/\s+/g, ' ').trim();
  // A doc that opens with a list (`built for failure: - …`) is summed up by what comes before it.
  const end = /[.!?](?=\s+[A-Z`("]|$)/.exec(body)?.index ?? body.length - 1;
  const listAt = body.search(/:\s+-\s/);
  const sentence = listAt !== -1 && listAt < end ? `${body.slice(0, listAt)}.` : body.slice(0, end + 1);
  if (sentence.length <= MAX) return sentence;
  return `${sentence.slice(0, sentence.lastIndexOf(' ', MAX))} …`;
}

/** `### \`x/\`` → its hand-written paragraph, from the current doc. */
function folderTexts(section) {
  const texts = new Map();
  const order = [];
  for (const block of section.split(/^#{3,4} /m).slice(1)) {
    const name = /^`([^`]+)`/.exec(block)?.[1];
    if (name === undefined) continue;
    const paragraph = block.split('\n').slice(1).join('\n').trim().split(/\n\s*\n/)[0] ?? '';
    order.push(name);
    if (!paragraph.startsWith('- ')) texts.set(name, paragraph);
  }
  return { texts, order };
}

const doc = readFileSync(docPath, 'utf8');
const at = doc.indexOf(HEADING);
if (at === -1) throw new Error(`${docPath}: no "${HEADING}" section`);
const { texts, order } = folderTexts(doc.slice(at));
const files = sourceFiles(src)
  .map((path) => relative(src, path).split(sep).join('/'))
  .sort();
const folderOf = (file) => (file.includes('/') ? `${file.slice(0, file.lastIndexOf('/'))}/` : 'src/');
const folders = [...new Set(files.map(folderOf))];
const top = (folder) => (folder === 'src/' ? folder : `${folder.split('/')[0]}/`);
const rank = (folder) => {
  const index = order.indexOf(top(folder));
  return index === -1 ? order.length : index;
};
folders.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

let out = `${HEADING}\n`;
for (const folder of folders) {
  out += `\n${folder === top(folder) ? '###' : '####'} \`${folder}\`\n\n`;
  const text = texts.get(folder);
  if (text !== undefined && text !== '') out += `${text}\n\n`;
  for (const file of files.filter((candidate) => folderOf(candidate) === folder)) out += `- \`${file}\` — ${summaryOf(file)}\n`;
}
const next = doc.slice(0, at) + out;
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error('docs/architecture.md is out of date: run node scripts/architecture-map.mjs');
    process.exit(1);
  }
} else {
  writeFileSync(docPath, next);
}
