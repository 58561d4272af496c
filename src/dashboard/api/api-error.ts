/**
 * @module dashboard/api/api-error
 * A failed `/api` request: the HTTP status plus the gateway's `{ error: { code, message, … } }` body.
 */

import { isRecord } from '../model/is-record.js';
import type { ApiErrorBody, ApiIssue } from '../../contract/api-contract.js';

/** An error answer of the gateway, or a request that never got one (`status` 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly hint: string | undefined;
  readonly server: string | undefined;
  readonly issues: readonly ApiIssue[];

  constructor(status: number, body: ApiErrorBody) {
    super(body.message);
    this.status = status;
    this.code = body.code;
    this.hint = body.hint;
    this.server = body.server;
    this.issues = body.issues ?? [];
  }
}

/** Reads an error body defensively: a proxy may answer with HTML or nothing at all. */
export function parseErrorBody(status: number, body: unknown): ApiErrorBody {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  if (error === undefined) return { code: `HTTP_${status}`, message: `the gateway answered ${status}` };
  const issues = Array.isArray(error.issues) ? error.issues.filter(isIssue) : undefined;
  return {
    code: typeof error.code === 'string' ? error.code : `HTTP_${status}`,
    message: typeof error.message === 'string' ? error.message : `the gateway answered ${status}`,
    ...(typeof error.hint === 'string' ? { hint: error.hint } : {}),
    ...(typeof error.server === 'string' ? { server: error.server } : {}),
    ...(issues !== undefined ? { issues } : {}),
  };
}

function isIssue(value: unknown): value is ApiIssue {
  return isRecord(value) && typeof value.path === 'string' && typeof value.message === 'string' && (value.hint === undefined || typeof value.hint === 'string');
}
