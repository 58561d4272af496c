/**
 * @module util/redact-urls
 * URLs inside free text (log lines, error messages) with their credentials taken out: the userinfo
 * (`user:password@`) and the values of credential-looking query parameters (`api_key`, `token`…).
 */

/** What replaces a credential in a redacted URL. */
export const REDACTED = '••••';
/** Query parameter names whose values are treated as credentials. */
export const SECRET_QUERY_PARAM = /key|token|secret|pass|auth|sig|code|credential/i;
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i;
const QUERY_PARAM = /([?&;])([^=&#;]*)=([^&#;]*)/g;

/** `text` with every URL in it redacted (see the module). */
export function redactUrlsInText(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (url) =>
    url
      .replace(USERINFO, `$1${REDACTED}@`)
      .replace(QUERY_PARAM, (whole, separator: string, name: string) => (SECRET_QUERY_PARAM.test(decodeSafely(name)) ? `${separator}${name}=${REDACTED}` : whole)),
  );
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
