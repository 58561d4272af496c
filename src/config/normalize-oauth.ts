/**
 * @module config/normalize-oauth
 * `oauth:` of a server entry → {@link OAuthSettings}, with the cross-field rules (a grant's required
 * fields, one private key source, an `https:` metadata document URL). Values are never echoed.
 */

import { isAbsolute, resolve } from 'node:path';
import type { ConfigIssue } from '../errors.js';
import { OAUTH_SIGNING_ALGORITHMS, type OAuthSettings } from './oauth-settings.js';
import type { OAuthEntry } from './schema.js';

/** Normalizes `oauth:`; returns undefined when absent, `false`, or invalid (issues pushed to `errors`). */
export function normalizeOAuthEntry(entry: OAuthEntry | undefined, path: string, baseDir: string, errors: ConfigIssue[]): OAuthSettings | undefined {
  if (entry === undefined || entry === false) return undefined;
  if (entry === true) return { signingAlgorithm: 'RS256' };
  const before = errors.length;
  const settings: OAuthSettings = { signingAlgorithm: entry.signingAlgorithm ?? 'RS256' };
  if (entry.grant !== undefined) settings.grant = entry.grant;
  if (entry.clientId !== undefined) settings.clientId = entry.clientId;
  if (entry.clientSecret !== undefined) settings.clientSecret = entry.clientSecret;
  if (entry.clientName !== undefined) settings.clientName = entry.clientName;
  if (entry.redirectPort !== undefined) settings.redirectPort = entry.redirectPort;
  if (entry.privateKey !== undefined) settings.privateKey = entry.privateKey;
  if (entry.privateKeyFile !== undefined) {
    settings.privateKeyFile = isAbsolute(entry.privateKeyFile) ? entry.privateKeyFile : resolve(baseDir, entry.privateKeyFile);
  }
  if (entry.assertion !== undefined) settings.assertion = entry.assertion;
  if (entry.assertionFile !== undefined) {
    settings.assertionFile = isAbsolute(entry.assertionFile) ? entry.assertionFile : resolve(baseDir, entry.assertionFile);
  }
  const scopes = typeof entry.scopes === 'string' ? entry.scopes.split(/\s+/) : (entry.scopes ?? []);
  const cleanScopes = scopes.map((scope) => scope.trim()).filter((scope) => scope !== '');
  if (cleanScopes.length > 0) settings.scopes = [...new Set(cleanScopes)];

  if (entry.clientMetadataUrl !== undefined) {
    if (!isMetadataDocumentUrl(entry.clientMetadataUrl)) {
      errors.push({
        path: `${path}.clientMetadataUrl`,
        message: 'must be an https:// URL with a path (the client ID metadata document)',
        hint: 'e.g. https://example.com/oauth/client-metadata.json',
      });
    } else {
      settings.clientMetadataUrl = entry.clientMetadataUrl;
    }
  }
  if (!(OAUTH_SIGNING_ALGORITHMS as readonly string[]).includes(settings.signingAlgorithm)) {
    errors.push({ path: `${path}.signingAlgorithm`, message: `must be one of ${OAUTH_SIGNING_ALGORITHMS.join(', ')}` });
  }
  if (settings.privateKey !== undefined && settings.privateKeyFile !== undefined) {
    errors.push({ path: `${path}.privateKeyFile`, message: 'conflicts with `privateKey`', hint: 'keep one of them' });
  }
  const hasKey = settings.privateKey !== undefined || settings.privateKeyFile !== undefined;
  if (settings.clientSecret !== undefined && settings.clientId === undefined) {
    errors.push({ path: `${path}.clientSecret`, message: 'is set but `clientId` is not', hint: 'a secret belongs to a pre-registered client: add `clientId`' });
  }
  if (hasKey && settings.clientId === undefined) {
    errors.push({ path: `${path}.clientId`, message: 'is required with a private key (private_key_jwt)' });
  }
  if (settings.clientId !== undefined && settings.clientMetadataUrl !== undefined) {
    errors.push({ path: `${path}.clientMetadataUrl`, message: 'conflicts with `clientId`', hint: 'a metadata document URL is itself the client id; keep one' });
  }
  if (entry.grant === 'client_credentials' && (settings.clientId === undefined || (settings.clientSecret === undefined && !hasKey))) {
    errors.push({
      path: `${path}.grant`,
      message: 'client_credentials needs `clientId` with `clientSecret` or a private key',
      hint: 'add `clientId` and `clientSecret: ${SECRET_VAR}` (or a PEM key: `privateKey`, or `privateKeyFile` in a config file)',
    });
  }
  if (entry.idp !== undefined) {
    const idp = entry.idp;
    if (idp.tokenEndpoint === undefined && idp.url === undefined) {
      errors.push({ path: `${path}.idp`, message: 'needs `tokenEndpoint` or `url` (the identity provider, for discovery)' });
    }
    for (const key of ['tokenEndpoint', 'url'] as const) {
      const value = idp[key];
      if (value !== undefined && !isHttpUrl(value)) errors.push({ path: `${path}.idp.${key}`, message: 'is not an http(s) URL' });
    }
    settings.idp = {
      clientId: idp.clientId,
      idToken: idp.idToken,
      ...(idp.tokenEndpoint === undefined ? {} : { tokenEndpoint: idp.tokenEndpoint }),
      ...(idp.url === undefined ? {} : { url: idp.url }),
      ...(idp.clientSecret === undefined ? {} : { clientSecret: idp.clientSecret }),
    };
  }
  checkJwtBearer(entry, settings, path, errors);
  return errors.length > before ? undefined : settings;
}

/** The `jwt-bearer` grant takes one source of its JWT: `idp` (an ID-JAG), `assertion` or `assertionFile` (a workload's own JWT). */
function checkJwtBearer(entry: Exclude<OAuthEntry, boolean>, settings: OAuthSettings, path: string, errors: ConfigIssue[]): void {
  const sources = (['idp', 'assertion', 'assertionFile'] as const).filter((key) => entry[key] !== undefined);
  if (entry.grant !== 'jwt-bearer') {
    for (const key of sources) errors.push({ path: `${path}.${key}`, message: 'is only used by the jwt-bearer grant', hint: `add \`grant: jwt-bearer\`, or remove \`${key}\`` });
    return;
  }
  if (sources.length === 0) {
    errors.push({
      path: `${path}.grant`,
      message: 'jwt-bearer needs the JWT it presents',
      hint: 'add `assertionFile` (the workload token file your platform mounts) or `assertion: ${WORKLOAD_JWT}`; for enterprise-managed authorization, `idp: { tokenEndpoint, clientId, idToken }`',
    });
    return;
  }
  if (sources.length > 1) {
    errors.push({ path: `${path}.${sources[1]}`, message: `conflicts with \`${sources[0]}\``, hint: 'keep one source of the JWT' });
    return;
  }
  if (settings.idp !== undefined && (settings.clientId === undefined || settings.clientSecret === undefined)) {
    errors.push({ path: `${path}.grant`, message: 'jwt-bearer with `idp` needs `clientId` and `clientSecret` (registered with the server\'s authorization server)' });
  }
  if (settings.idp === undefined && settings.clientId === undefined) {
    errors.push({ path: `${path}.clientId`, message: 'is required by the jwt-bearer grant', hint: "the client id the server's authorization server knows this workload by" });
  }
}

function isMetadataDocumentUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.pathname !== '/';
  } catch {
    return false;
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
