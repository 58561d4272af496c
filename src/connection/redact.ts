/**
 * @module connection/redact
 * Secrets never reach a log line: header values that carry credentials are masked, and known secret
 * values (env values, API keys) are replaced wherever they appear in a traced message.
 */

const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|.*token.*|.*secret.*|.*key.*)$/i;

/** The mask written in place of a secret. */
export const REDACTED = '[redacted]';

/** Headers with credential-bearing values masked. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) result[key] = SECRET_HEADER.test(key) ? REDACTED : value;
  return result;
}

/** Replaces every occurrence of each secret in `text`. Secrets shorter than 4 characters are ignored. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    // Secrets also appear JSON-escaped inside serialized messages.
    const escaped = JSON.stringify(secret).slice(1, -1);
    if (escaped !== secret && result.includes(escaped)) result = result.split(escaped).join(REDACTED);
  }
  return result;
}
