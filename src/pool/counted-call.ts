/**
 * @module pool/counted-call
 * One call of a user's client, counted on the generation that runs it (a replaced client closes once
 * its count is back to 0), its end told once whichever way it ends, a failure disclosed as the user
 * may see it. Not `async`: one derived promise instead of an async frame and its await per call
 * (issue 17).
 */

import { ErrorCode, isSwitchboardError } from '../errors.js';
import type { MultiServerClient } from '../client/multi-server-client.js';
import type { Generation } from './user-generation.js';

/** Runs `run` on `generation`'s client; `ended` gets the call's error code (undefined for success) before its caller sees the outcome. */
export function countedCall<T>(generation: Generation, run: (client: MultiServerClient) => Promise<T>, errorCodeOf: (result: T) => string | undefined, ended: (errorCode: string | undefined) => void): Promise<T> {
  generation.running++;
  const settle = (errorCode: string | undefined): void => {
    try {
      ended(errorCode);
    } finally {
      generation.running--;
      if (generation.running === 0) generation.idle?.();
    }
  };
  const failed = (error: unknown): Promise<never> => {
    settle(isSwitchboardError(error) ? error.code : ErrorCode.Internal);
    return Promise.reject(generation.disclosure.error(error));
  };
  let running: Promise<T>;
  try {
    running = run(generation.client);
  } catch (error) {
    return failed(error);
  }
  return running.then((result) => {
    settle(errorCodeOf(result));
    return result;
  }, failed);
}
