/**
 * @module connection/http-status
 * What the HTTP status of a transport failure means for the choice of transport (the status itself is
 * read by `httpStatusOf`, the one place that sniffs foreign errors).
 */

import { httpStatusOf } from '../to-switchboard-error.js';

/** True when a Streamable HTTP refusal says "try legacy SSE". */
export function shouldFallBackToSse(error: unknown): boolean {
  const status = httpStatusOf(error);
  // Auth failures must not be retried on another transport: they would fail the same way, later.
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}
