/**
 * @module cli/commands/doctor
 * `switchboard doctor [SERVER]`: diagnoses servers step by step and says what to do about failures.
 */

import type { Logger } from '../../logger.js';
import { CliExit, ExitCode, usageError } from '../cli-error.js';
import { loadConfigForCli } from '../connect-config.js';
import { style, writeJson, writeResult } from '../output.js';

/** Options of {@link doctor}. */
export interface DoctorOptions {
  server?: string;
  config?: string;
  json?: boolean;
  logger: Logger;
}

/** Runs the diagnosis of every enabled server (or the one named); exits 1 when any fails. */
export async function doctor(options: DoctorOptions): Promise<void> {
  const { config } = await loadConfigForCli({ ...(options.config === undefined ? {} : { config: options.config }), logger: options.logger });
  let specs = config.servers.filter((spec) => spec.enabled);
  if (options.server !== undefined) {
    const named = config.servers.find((spec) => spec.name === options.server);
    if (named === undefined) throw usageError(`unknown server "${options.server}"; the config has ${config.servers.map((spec) => spec.name).join(', ')}`);
    specs = [named];
  }
  const { diagnoseServer } = await import('../../diagnose/diagnose-server.js');
  const diagnoses = await Promise.all(specs.map((spec) => diagnoseServer(spec, { logger: options.logger })));
  if (options.json === true) {
    writeJson({ servers: diagnoses });
  } else {
    const lines: string[] = [];
    for (const diagnosis of diagnoses) {
      lines.push(`${diagnosis.ok ? style.green('✓', true) : style.red('✗', true)} ${style.bold(diagnosis.name, true)}`);
      for (const step of diagnosis.steps) {
        const mark = step.ok ? style.green('✓', true) : style.red('✗', true);
        const detail = (step.detail ?? '').split('\n');
        lines.push(`  ${mark} ${step.step.padEnd(11)} ${String(step.ms).padStart(5)} ms  ${detail[0] ?? ''}`);
        for (const more of detail.slice(1)) lines.push(`  ${' '.repeat(23)}${style.dim(more, true)}`);
        if (step.hint !== undefined) lines.push(`  ${' '.repeat(23)}${style.yellow(`hint: ${step.hint}`, true)}`);
      }
    }
    writeResult(lines.join('\n'));
  }
  if (diagnoses.some((diagnosis) => !diagnosis.ok)) throw new CliExit(ExitCode.Failed);
}
