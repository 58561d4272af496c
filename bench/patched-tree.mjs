#!/usr/bin/env node
/**
 * A copy of this built checkout with a measuring patch, for `p50-trees.mjs` (issue 17): `node
 * bench/patched-tree.mjs OUT_DIR (--marks | --busy POINT=US)`. OUT_DIR gets `bin/`, `dist/`,
 * `package.json` and a link to `node_modules`; the patch is applied to the copy's `dist/`, never to
 * this checkout. Scratch only: the copies measure where time goes, they are not changes to keep.
 *
 * - `--marks`: `performance.now()` at each stage of a 2025-era fast-path `tools/call` (request handler,
 *   body read, upstream write, upstream answer, response write); at exit the process prints the median
 *   of each stage over its last 20,000 calls to stderr. OUT_DIR also gets `floor-gateway.mjs`, the floor
 *   with the same marks, for `p50-trees.mjs --floor OUT_DIR/floor-gateway.mjs`.
 * - `--busy POINT=US`: a busy loop of US µs at POINT, one of `before-write` (before the call goes to
 *   the user's client), `after-write` (once the request is on the upstream's pipe, in the same turn),
 *   `before-answer` (the upstream's answer is in, before ours is made) and `after-answer` (our answer
 *   written): what a µs of gateway work costs the one-connection p50 at each place (bench/README.md,
 *   thirteenth pass).
 *
 * The patches find their places by text in the built files and fail, naming the file and the text,
 * when the code moved: update the anchors here with it.
 */

import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const benchDir = fileURLToPath(new URL('.', import.meta.url));
const [outArg, mode, busyArg] = process.argv.slice(2);
const POINTS = ['before-write', 'after-write', 'before-answer', 'after-answer'];
const busy = mode === '--busy' ? /^([a-z-]+)=(\d+)$/.exec(busyArg ?? '') : null;
if (outArg === undefined || (mode !== '--marks' && (busy === null || !POINTS.includes(busy[1])))) {
  process.stderr.write(`usage: node bench/patched-tree.mjs OUT_DIR (--marks | --busy POINT=US), POINT one of ${POINTS.join(', ')}\n`);
  process.exit(2);
}
const out = resolve(outArg);

/** Replaces each anchor in `path` once; throws when one is missing. */
function patch(path, replacements) {
  let text = readFileSync(path, 'utf8');
  for (const [anchor, replacement] of replacements) {
    if (!text.includes(anchor)) throw new Error(`patched-tree: ${path} no longer contains ${JSON.stringify(anchor)}: update the anchor`);
    text = text.replace(anchor, replacement);
  }
  writeFileSync(path, text);
}

/** The code that records stage `name` of the call in flight. */
const mark = (name) => `globalThis.__stage && (globalThis.__stage.${name} = performance.now());`;

/**
 * The exit report: for each pair of consecutive stages the median µs; `P` is the previous call's
 * turn's end, so `P→R` is the time between calls outside this process (the client's turn and both
 * hand-overs) and `R→A` Node's HTTP parsing up to the request handler.
 */
function report(label, stages) {
  return `const __calls = []; globalThis.__calls = __calls; process.on('exit', () => { const calls = __calls.slice(-20000).filter((c) => ${JSON.stringify(stages)}.every((s) => c[s] !== undefined)); const median = (f) => { const v = calls.map(f).sort((a, b) => a - b); return v[v.length >> 1]; }; const stages = ${JSON.stringify(stages)}; let line = ${JSON.stringify(label)} + ' (' + calls.length + ' calls, median µs):'; for (let i = 1; i < stages.length; i++) line += ' ' + stages[i - 1] + '→' + stages[i] + ' ' + (1000 * median((c) => c[stages[i]] - c[stages[i - 1]])).toFixed(1); process.stderr.write(line + '\\n'); });`;
}

/** J: the answer's callback is done; K: the turn it ran in is over (an immediate: microtasks and ticks ran). */
const DONE = `globalThis.__stage && ((stage) => { stage.J = performance.now(); globalThis.__calls.push(stage); setImmediate(() => { stage.K = performance.now(); globalThis.__lastK = stage.K; }); })(globalThis.__stage);`;

/** At the request handler: R is when the request's bytes were read (a socket listener ahead of Node's parser). */
const READ = (socket) => `if (${socket}.__marked === undefined) { ${socket}.__marked = true; ${socket}.prependListener('data', () => { globalThis.__readAt = performance.now(); }); }`;

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const part of ['bin', 'dist', 'package.json']) cpSync(join(root, part), join(out, part), { recursive: true });
symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'));
const fastPath = join(out, 'dist/gateway/fast-mcp-path.js');

if (busy !== null) {
  const loop = `{ const __until = performance.now() + ${Number(busy[2]) / 1000}; while (performance.now() < __until); }`;
  const anchors = {
    'before-write': 'this.#call(client, call, tracked, (result) => {',
    'after-write': 'running = this.#running.track(session, request.id, abort);',
    'before-answer': 'answer(outcome);',
    'after-answer': 'ended();\n',
  };
  const anchor = anchors[busy[1]];
  patch(fastPath, [[anchor, `${loop} ${anchor}`]]);
} else {
  // Stages: P (last call's turn over) R (request read) A (handler) B (body's end event) D/E (around the
  // pipe write) F (the turn after the write) G (upstream's answer read) H (our answer's write starts)
  // I (written) J (the answer's callback done) K (its turn over).
  patch(fastPath, [
    ['const started = performance.now();', `const started = performance.now(); ${READ('incoming.socket')} globalThis.__stage = { P: globalThis.__lastK, R: globalThis.__readAt, A: started }; if (globalThis.__calls === undefined) { ${report('switchboard', ['P', 'R', 'A', 'B', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K'])} }`],
    ['running = this.#running.track(session, request.id, abort);', `${mark('F')} running = this.#running.track(session, request.id, abort);`],
    ['writeSseMessage(outgoing, session.id, exchange.requestId, message);', `${mark('H')} writeSseMessage(outgoing, session.id, exchange.requestId, message); ${mark('I')}`],
    ['ended();\n', `ended(); ${DONE}\n`],
  ]);
  patch(join(out, 'dist/gateway/read-node-body.js'), [["incoming.on('end', () => {", `incoming.on('end', () => { ${mark('B')}`]]);
  patch(join(out, 'dist/connection/coalesced-writer.js'), [['return this.#stream.write(text);', `${mark('D')} const written = this.#stream.write(text); ${mark('E')} return written;`]]);
  patch(join(out, 'dist/connection/stdio-process-transport.js'), [["child.stdout?.on('data', (chunk) => this.#onStdout(chunk));", `child.stdout?.on('data', (chunk) => { ${mark('G')} this.#onStdout(chunk); });`]]);
  // The floor, marked at the same stages (it has no turn after the write of its own: F is E).
  const floor = join(out, 'floor-gateway.mjs');
  cpSync(join(benchDir, 'floor-gateway.mjs'), floor);
  patch(floor, [
    ['const server = http.createServer((request, response) => {', `${report('floor', ['P', 'R', 'A', 'B', 'D', 'E', 'G', 'H', 'I', 'J', 'K'])} process.on('SIGTERM', () => process.exit(0));\nconst server = http.createServer((request, response) => { const started = performance.now(); ${READ('request.socket')} globalThis.__stage = { P: globalThis.__lastK, R: globalThis.__readAt, A: started };`],
    ["request.on('end', async () => {", `request.on('end', async () => { ${mark('B')}`],
    ['upstream.stdin.write(`${JSON.stringify({ ...message, id })}\\n`);', `${mark('D')} upstream.stdin.write(\`\${JSON.stringify({ ...message, id })}\\n\`); ${mark('E')}`],
    ["upstream.stdout.on('data', (chunk) => {", `upstream.stdout.on('data', (chunk) => { ${mark('G')}`],
    ["response.writeHead(200, { 'content-type': 'text/event-stream'", `${mark('H')} response.writeHead(200, { 'content-type': 'text/event-stream'`],
    ['id: message.id })}\\n\\n`);', `id: message.id })}\\n\\n\`); ${mark('I')} ${DONE}`],
  ]);
}
console.log(out);
