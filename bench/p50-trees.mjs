#!/usr/bin/env node
/**
 * p50 at one connection of built trees against the floor, paired (issue 17): `node
 * bench/p50-trees.mjs DIR… [--era 2025|2026] [--rounds N] [--lives L] [--connections C] [--floor FILE]`
 * (`--floor`: another floor script, e.g. patched-tree.mjs's marked copy). Each life
 * starts the floor and one `switchboard serve` per tree (each in front of its own echo server), warms
 * them, then runs `rounds` rounds of one 1 s wrk window per row, in alternating order; every row is
 * stopped at the end of a life and started afresh for the next. Prints per row the median p50, the
 * process's CPU per call (/proc/PID/stat) and the median of its per-round p50 ÷ the floor's.
 *
 * Why lives: one process's figures stay off for its whole life (where its JIT settled), and at one
 * connection a window's p50 swings with where the scheduler placed the processes; 4–6 lives of 4
 * rounds bring the spread of a row's ratio to about ±0.05 (bench/README.md, "Eleventh pass").
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './case-stats.mjs';
import { echoCallEnv, wrkEcho } from './echo-call.mjs';
import { commandLine, startRow, stopRow } from './gateway-row.mjs';
import { CLK_TCK, cpuTicks } from './wrk-run.mjs';

const { option, words: trees } = commandLine();
if (trees.length === 0) {
  process.stderr.write('usage: node bench/p50-trees.mjs DIR… [--era 2025|2026] [--rounds N] [--lives L] [--connections C] [--floor FILE]\n');
  process.exit(2);
}
const era = option('--era', '2025');
const rounds = Number(option('--rounds', '4'));
const lives = Number(option('--lives', '4'));
/** Another floor script (a copy of floor-gateway.mjs with stage marks, see patched-tree.mjs). */
const floorScript = option('--floor', undefined);
const connections = Number(option('--connections', '1'));
const work = mkdtempSync(join(tmpdir(), 'sb-p50-trees-'));
const running = [];

/** Starts one row (the floor for `tree` undefined) and opens its session; `life` keeps each life's files apart. */
async function start(tree, index, life) {
  const { child, url, token } = await startRow({ tree, files: join(work, `${index}-${life}`), ...(floorScript === undefined ? {} : { floorScript: resolve(floorScript) }) });
  running.push(child);
  return { child, url, env: await echoCallEnv(url, token, era, 'p50') };
}

const rows = [undefined, ...trees];
const p50 = rows.map(() => []);
const cpu = rows.map(() => []);
const ratio = rows.map(() => []);
try {
  for (let life = 0; life < lives; life++) {
    const started = await Promise.all(rows.map((tree, index) => start(tree, index, life)));
    for (const row of started) await wrkEcho(row.url, row.env, connections, 2);
    for (let round = 0; round < rounds; round++) {
      const order = rows.map((_, index) => index);
      if ((round + life) % 2 === 1) order.reverse();
      const got = [];
      for (const index of order) {
        const { child, url, env } = started[index];
        const before = cpuTicks(child.pid);
        const result = await wrkEcho(url, env, connections, 1);
        if (result.bad > 0 || result.socketErrors > 0) throw new Error(`${rows[index] ?? 'floor'}: ${result.bad} bad answers, ${result.socketErrors} socket errors`);
        got[index] = result.p50Us;
        p50[index].push(result.p50Us);
        cpu[index].push(((cpuTicks(child.pid) - before) / CLK_TCK / result.requests) * 1e6);
      }
      for (let index = 1; index < rows.length; index++) ratio[index].push(got[index] / got[0]);
    }
    await Promise.all(running.splice(0).map(stopRow));
  }
  console.log(`${era} @${connections}: ${lives} lives × ${rounds} rounds of 1 s per row`);
  rows.forEach((tree, index) => {
    const paired = index === 0 ? '' : `  p50 ÷ floor ${median(ratio[index]).toFixed(3)}`;
    console.log(`${(tree ?? 'floor').padEnd(28)} p50 ${median(p50[index]).toFixed(1)} µs  CPU ${median(cpu[index]).toFixed(1)} µs/call${paired}`);
  });
} finally {
  await Promise.all(running.splice(0).map(stopRow));
  rmSync(work, { recursive: true, force: true });
}
