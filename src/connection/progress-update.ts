/**
 * @module connection/progress-update
 * Progress a server reports for one request (`notifications/progress`), as callers receive it.
 */

/** Progress reported by the server for a request. */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}
