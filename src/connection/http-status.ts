/**
 * @module connection/http-status
 * The HTTP status of a transport failure (the SDK puts it on the error or in its `data`), and what it
 * means for the choice of transport.
 */

/** The status of an SDK HTTP error, if it has one. */
export function httpStatus(error: unknown): number | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  if (typeof data === 'object' && data !== null && typeof (data as { status?: unknown }).status === 'number') return (data as { status: number }).status;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/** True when a Streamable HTTP refusal says "try legacy SSE". */
export function shouldFallBackToSse(error: unknown): boolean {
  const status = httpStatus(error);
  // Auth failures must not be retried on another transport: they would fail the same way, later.
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}
