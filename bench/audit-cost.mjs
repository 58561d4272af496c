#!/usr/bin/env node
/**
 * CPU per audit entry on SQLite, as the gateway pays it once per tools/call (issue 17):
 * `node bench/audit-cost.mjs [--entries N]`. A registry on a fresh SQLite file (the real migrations),
 * the pool's `AuditWriter` over its audit store, entries written as the user client writes them and
 * flushed every 200 (the writer's batch); prints process CPU per entry for three rounds. Needs `dist/`
 * (`npm run build`).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const entries = args.includes('--entries') ? Number(args[args.indexOf('--entries') + 1]) : 200_000;
const { ServerRegistry } = await import('../dist/registry/index.js');
const { AuditWriter } = await import('../dist/registry/audit-writer.js');
const dir = mkdtempSync(join(tmpdir(), 'sb-audit-cost-'));
const registry = await ServerRegistry.open({ db: join(dir, 'audit.db') });
const writer = new AuditWriter(registry.audit);
try {
  for (let round = 1; round <= 3; round++) {
    const before = process.cpuUsage();
    for (let index = 0; index < entries; index++) {
      writer.write({ userId: 'u1', userName: 'admin', server: 'echo', tool: 'echo', ok: true, errorCode: undefined, durationMs: 0.4, arguments: undefined });
      if (index % 200 === 199) await writer.flush();
    }
    await writer.flush();
    const used = process.cpuUsage(before);
    console.log(`round ${round}: ${((used.user + used.system) / entries).toFixed(2)} µs of CPU per audit entry (${entries} entries, ${writer.stats().written} stored in all)`);
  }
} finally {
  await writer.close();
  await registry.close();
  rmSync(dir, { recursive: true, force: true });
}
