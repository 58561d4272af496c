/**
 * The stable code a refused operation rejects with.
 */
import { isSwitchboardError } from '../../src/errors.js';

/** The `SwitchboardError` code `promise` rejects with; fails when it resolves or rejects with anything else. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isSwitchboardError(error)) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}
