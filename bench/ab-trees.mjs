#!/usr/bin/env node
/**
 * A paired A/B of `switchboard serve` from two checkouts (issue 17): `node bench/ab-trees.mjs DIR_A DIR_B
 * [--era 2025|2026] [--rounds N] [--seconds S] [--connections C]`. Both trees must be built. Each
 * round starts a fresh gateway of each tree in turn (A, B, then B, A), each in front of its own echo
 * server, warms it with wrk for a second, measures it, stops it; prints per round and as medians
 * each one's CPU per call (/proc/PID/stat) and calls/s, with the paired ratio B ÷ A. A fresh process
 * per round on purpose: one process's cost stays off by up to 15 % for its whole life (where its JIT
 * settled), so two long-lived processes compare their placements rather than their code.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './case-stats.mjs';
import { echoCallEnv, wrkEcho } from './echo-call.mjs';
import { commandLine, startRow, stopRow } from './gateway-row.mjs';
import { CLK_TCK, cpuTicks } from './wrk-run.mjs';

const { option, words: trees } = commandLine();
if (trees.length !== 2) {
  process.stderr.write('usage: node bench/ab-trees.mjs DIR_A DIR_B [--era 2025|2026] [--rounds N] [--seconds S] [--connections C]\n');
  process.exit(2);
}
const era = option('--era', '2025');
const rounds = Number(option('--rounds', '10'));
const seconds = Number(option('--seconds', '2'));
const connections = Number(option('--connections', '64'));

const work = mkdtempSync(join(tmpdir(), 'sb-ab-'));

/** Starts tree `index`'s gateway (a fresh process, its own echo server and database) and opens its session. */
async function start(index, round) {
  const { child, url, token } = await startRow({ tree: trees[index], files: join(work, `${index}-${round}`) });
  running.add(child);
  return { child, url, env: await echoCallEnv(url, token, era, 'ab') };
}

function stop(child) {
  running.delete(child);
  return stopRow(child);
}

const running = new Set();
try {
  const figures = trees.map(() => ({ cpu: [], rate: [] }));
  const ratios = { cpu: [], rate: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0];
    const measured = [];
    for (const index of order) {
      const { child, url, env } = await start(index, round);
      // Warmed first (JIT, the pool's client, the SQLite file): only the steady state counts.
      await wrkEcho(url, env, connections, 1);
      const before = cpuTicks(child.pid);
      const result = await wrkEcho(url, env, connections, seconds);
      const ticks = cpuTicks(child.pid) - before;
      await stop(child);
      if (result.bad > 0) throw new Error(`${trees[index]}: ${result.bad} bad answers`);
      measured[index] = { cpu: (ticks / CLK_TCK / result.requests) * 1e6, rate: result.requests / seconds };
    }
    for (const index of [0, 1]) {
      figures[index].cpu.push(measured[index].cpu);
      figures[index].rate.push(measured[index].rate);
    }
    ratios.cpu.push(measured[1].cpu / measured[0].cpu);
    ratios.rate.push(measured[1].rate / measured[0].rate);
    console.log(`round ${round + 1}: CPU µs/call ${measured[0].cpu.toFixed(1)} vs ${measured[1].cpu.toFixed(1)} (${ratios.cpu.at(-1).toFixed(3)}), calls/s ${Math.round(measured[0].rate)} vs ${Math.round(measured[1].rate)}`);
  }
  console.log(`\n${era} @${connections}, ${rounds} rounds of ${seconds} s; A = ${trees[0]}, B = ${trees[1]}`);
  console.log(`CPU µs/call: A ${median(figures[0].cpu).toFixed(1)}, B ${median(figures[1].cpu).toFixed(1)}; median paired B ÷ A ${median(ratios.cpu).toFixed(3)}`);
  console.log(`calls/s: A ${Math.round(median(figures[0].rate))}, B ${Math.round(median(figures[1].rate))}; median paired B ÷ A ${median(ratios.rate).toFixed(3)}`);
} finally {
  await Promise.all([...running].map(stop));
  rmSync(work, { recursive: true, force: true });
}
