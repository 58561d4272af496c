/**
 * @module connection/call-options
 * The options of one request to a server: its deadline, cancellation and progress.
 */

import type { ProgressUpdate } from './progress-update.js';

/** Options of one call. */
export interface CallOptions {
  signal?: AbortSignal;
  /** @default the server's `callTimeout` */
  timeoutMs?: number;
  /** Progress notifications of this call; each also restarts the deadline. */
  onProgress?: (progress: ProgressUpdate) => void;
}
