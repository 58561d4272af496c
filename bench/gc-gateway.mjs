#!/usr/bin/env node
/**
 * What the young-generation GC does per call in `switchboard serve` under wrk (issue 17): `node
 * bench/gc-gateway.mjs [switchboard|floor] [2025|2026] [--seconds N] [--connections C] [--tree DIR]`.
 * Starts the gateway (from DIR's `bin/switchboard.js`, default this checkout) with `--trace-gc` in
 * front of the echo server, warms it with wrk for 2 s, then reads the trace lines printed during the
 * measured window: scavenges, their main-thread time, and how much the heap kept after each one grew
 * (what the scavenges promoted to the old generation, which only a full GC frees), plus full GCs.
 * Garbage that dies young is cheap; garbage promoted first is copied by every scavenge it survives.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { echoCallEnv, wrkEcho } from './echo-call.mjs';
import { commandLine, startRow, stopRow } from './gateway-row.mjs';
import { CLK_TCK, cpuTicks } from './wrk-run.mjs';

const { option, words, tree } = commandLine();
const name = words.includes('floor') ? 'floor' : 'switchboard';
const era = words.includes('2026') ? '2026' : '2025';
const seconds = Number(option('--seconds', '8'));
const connections = Number(option('--connections', '64'));

const dir = mkdtempSync(join(tmpdir(), 'sb-gc-gateway-'));
const { child, url, token } = await startRow({ tree: name === 'floor' ? undefined : tree, files: join(dir, 'switchboard'), nodeFlags: ['--trace-gc'], stdout: 'pipe' });
let measuring = false;
const lines = [];
let partial = '';
child.stdout.setEncoding('utf8');
child.stdout.on('data', (chunk) => {
  const text = partial + chunk;
  const parts = text.split('\n');
  partial = parts.pop() ?? '';
  if (measuring) lines.push(...parts);
});
try {
  const env = await echoCallEnv(url, token, era, 'gc');
  await wrkEcho(url, env, connections, 2);
  measuring = true;
  const before = cpuTicks(child.pid);
  const result = await wrkEcho(url, env, connections, seconds);
  const cpuUs = ((cpuTicks(child.pid) - before) / CLK_TCK) * 1e6;
  measuring = false;
  let scavenges = 0;
  let scavengeMs = 0;
  let fullGcs = 0;
  let grown = 0;
  let previous;
  for (const line of lines) {
    // "[pid:0x…]  6761 ms: Scavenge 87.5 (107.8) -> 75.1 (108.0) MB, 2.22 / 0.01 ms ..."
    const match = /(Scavenge|Mark-Compact)[^\d]*([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB, ([\d.]+)/.exec(line);
    if (match === null) continue;
    const after = Number(match[3]);
    if (match[1] === 'Scavenge') {
      scavenges++;
      scavengeMs += Number(match[4]);
      if (previous !== undefined) grown += after - previous;
    } else {
      fullGcs++;
    }
    previous = after;
  }
  const calls = result.requests;
  console.log(`${name} ${era} @${connections}, ${seconds} s: ${calls} calls (${Math.round(calls / seconds)}/s), ${result.bad} bad; ${(cpuUs / calls).toFixed(1)} µs of process CPU per call`);
  console.log(`  ${scavenges} scavenges, ${((scavengeMs * 1000) / calls).toFixed(2)} µs of main-thread scavenge per call, one every ${Math.round(calls / Math.max(1, scavenges))} calls`);
  console.log(`  heap kept after scavenges grew by ${(grown / Math.max(1, scavenges - 1)).toFixed(3)} MB per scavenge (promoted), ${((grown * 1048576) / calls).toFixed(0)} B per call; ${fullGcs} full GCs in the window`);
} finally {
  await stopRow(child);
  rmSync(dir, { recursive: true, force: true });
}
