/**
 * @module registry/mask-secret
 * What the registry shows instead of a secret. Long values keep their last four characters so people
 * can tell keys apart; short ones show nothing, since four characters of an eight-character value
 * are half of it.
 */

/** The mask of a value too short to show any of it. */
export const SECRET_MASK = '••••';
const SHOW_TAIL_FROM_LENGTH = 20;

/** `••••abcd` for long values, `••••` for short ones. */
export function maskSecret(value: string): string {
  return value.length >= SHOW_TAIL_FROM_LENGTH ? `${SECRET_MASK}${value.slice(-4)}` : SECRET_MASK;
}

/** Each value of a record masked, keys kept. */
export function maskValues(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, maskSecret(value)]));
}

const SECRET_QUERY_KEY = /key|token|secret|pass|auth|sig|code/i;

/** True when a URL carries a password or a credential-looking query parameter. */
export function urlHasCredentials(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.password !== '' || [...parsed.searchParams.keys()].some((key) => SECRET_QUERY_KEY.test(key));
  } catch {
    return false;
  }
}

/** A URL with its password and the values of credential-looking query parameters masked. */
export function maskUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password !== '') parsed.password = 'xxxx';
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY_KEY.test(key)) parsed.searchParams.set(key, 'xxxx');
  }
  return parsed.toString();
}
