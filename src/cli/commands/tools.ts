/**
 * @module cli/commands/tools
 * `switchboard tools`: every server's state and every tool under its exposed name.
 */

import type { Logger } from '../../logger.js';
import { CliExit, ExitCode } from '../cli-error.js';
import { connectForCli } from '../connect-config.js';
import { printable, style, writeJson, writeResult } from '../output.js';

/** Options of {@link tools}. */
export interface ToolsOptions {
  config?: string;
  server?: string[];
  json?: boolean;
  logger: Logger;
}

/** Lists servers and tools; exits 1 when no enabled server could be reached. */
export async function tools(options: ToolsOptions): Promise<void> {
  const client = await connectForCli(options);
  try {
    // With --server, only those servers started; names are still those of the whole config.
    const servers = client.status().filter((status) => status.enabled && (options.server === undefined || options.server.length === 0 || options.server.includes(status.name)));
    const list = client.listTools();
    const report = client.catalogReport().tools;
    if (options.json === true) {
      writeJson({
        servers: servers.map((status) => ({
          name: status.name,
          state: status.state,
          ...(status.transport === undefined ? {} : { transport: status.transport }),
          ...(status.protocolVersion === undefined ? {} : { protocolVersion: status.protocolVersion }),
          ...(status.startMs === undefined ? {} : { startMs: status.startMs, queuedMs: status.queuedMs ?? 0 }),
          ...(status.error === undefined ? {} : { error: status.error }),
        })),
        tools: list.map((tool) => ({
          name: tool.name,
          server: tool.server,
          originalName: tool.originalName,
          ...(tool.description === undefined ? {} : { description: tool.description }),
          inputSchema: tool.inputSchema,
          ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        })),
        catalog: { strategy: report.strategy, renames: report.renames, collisions: report.collisions, filtered: report.filtered, ...(report.pending === undefined ? {} : { pending: report.pending }) },
      });
    } else {
      const lines: string[] = [style.bold('Servers', true)];
      const width = Math.max(...servers.map((status) => status.name.length), 4);
      for (const status of servers) {
        const mark = status.state === 'ready' ? style.green('✓', true) : style.red('✗', true);
        const facts = status.state === 'ready' ? `${status.transport ?? ''}  ${status.protocolVersion ?? ''}  ${status.toolCount} tools${status.startMs === undefined ? '' : `  ${(status.startMs / 1000).toFixed(1)} s`}` : `${status.error?.code ?? ''}: ${printable(status.error?.message ?? '')}`;
        lines.push(`  ${mark} ${status.name.padEnd(width)}  ${status.state.padEnd(7)}  ${facts}`);
        if (status.error?.hint !== undefined) lines.push(`    ${style.dim(`hint: ${printable(status.error.hint)}`, true)}`);
      }
      lines.push('', style.bold(`Tools (${list.length})`, true));
      const nameWidth = Math.min(Math.max(...list.map((tool) => tool.name.length), 4), 40);
      for (const tool of list) {
        const origin = tool.originalName === tool.name ? tool.server : `${tool.server}: ${printable(tool.originalName)}`;
        const description = (tool.description ?? '').replace(/^\[[^\]]*\] ?/, '').split('\n')[0] ?? '';
        lines.push(`  ${printable(tool.name).padEnd(nameWidth)}  ${style.dim(origin, true)}  ${printable(description.slice(0, 80))}`);
      }
      if (report.collisions.length > 0 || report.renames.length > 0 || report.pending !== undefined) {
        lines.push('', style.bold('Naming', true));
        if (report.pending !== undefined) lines.push(`  every name is prefixed until the tools of ${report.pending.join(', ')} are known (once it starts; or disable it)`);
        for (const collision of report.collisions) lines.push(`  "${collision.name}" is offered by ${collision.servers.join(', ')}`);
        for (const rename of report.renames) lines.push(`  ${rename.server}: ${rename.originalName} → ${rename.name} (${rename.reasons.join(', ')})`);
      }
      writeResult(lines.join('\n'));
    }
    if (servers.length > 0 && servers.every((status) => status.state !== 'ready')) throw new CliExit(ExitCode.Failed);
  } finally {
    await client.close();
  }
}
