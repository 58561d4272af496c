/**
 * @module dashboard/components/problem
 * An API failure shown to people: the message, the hint, and every validation issue.
 */

import { ApiError } from '../api/api-error.js';

export interface ProblemIssue {
  path: string;
  message: string;
  hint?: string | undefined;
}

/** The message of any failure. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function Problem({ error, issues = [], id }: { error?: unknown; issues?: readonly ProblemIssue[]; id?: string }) {
  if (error === undefined && issues.length === 0) return null;
  const apiError = error instanceof ApiError ? error : undefined;
  const allIssues = [...(apiError?.issues ?? []), ...issues];
  return (
    <div class="problem-box" role="alert" id={id}>
      {/* A config error's message repeats its issues line by line: the list below says them once. */}
      {error === undefined ? <p>Please fix:</p> : <p>{allIssues.length > 0 ? messageOf(error).split('\n')[0] : messageOf(error)}</p>}
      {apiError?.hint === undefined ? null : <p class="hint">{apiError.hint}</p>}
      {allIssues.length === 0 ? null : (
        <ul>
          {allIssues.map((issue, index) => (
            <li key={index}>
              {issue.path === '' ? null : <code>{issue.path}</code>} {issue.message}
              {issue.hint === undefined ? null : <span class="hint"> — {issue.hint}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Says that the data shown is the last known one, when reloading it failed. */
export function StaleNotice({ error, shown }: { error: unknown; shown: boolean }) {
  if (error === undefined || !shown) return null;
  return (
    <p class="note" role="status">
      Showing the last known data: {messageOf(error)}
    </p>
  );
}
