/**
 * @module auth/workload-assertion
 * The workload's own JWT for the `jwt-bearer` grant (workload identity federation, SEP-1933): the
 * configured `assertion`, or the file of `assertionFile`, read again at every token request because
 * platforms rotate it (a Kubernetes projected service account token, a CI job's OIDC token file).
 * The token never appears in an error; the file's path does.
 */

import { readFile } from 'node:fs/promises';
import type { OAuthSettings } from '../config/oauth-settings.js';
import { ErrorCode, SwitchboardError } from '../errors.js';

/** The workload JWT to present, or undefined when the settings name none (then `idp` provides one). */
export async function workloadAssertion(server: string, settings: Pick<OAuthSettings, 'assertion' | 'assertionFile'>): Promise<string | undefined> {
  if (settings.assertion !== undefined) return settings.assertion;
  const file = settings.assertionFile;
  if (file === undefined) return undefined;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw unreadable(server, `cannot read the workload token file ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`, error);
  }
  const token = text.trim();
  if (token === '') throw unreadable(server, `the workload token file ${file} is empty`);
  return token;
}

function unreadable(server: string, reason: string, cause?: unknown): SwitchboardError {
  // The connection shows `reason` after its own "server … failed to start:".
  return new SwitchboardError(ErrorCode.ConfigInvalid, `server "${server}": ${reason}`, { server, reason, ...(cause === undefined ? {} : { cause }) });
}
