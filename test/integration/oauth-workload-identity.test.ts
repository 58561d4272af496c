/**
 * Workload identity federation (SEP-1933, RFC 7523 §2.1) against a real authorization server and a
 * protected MCP server on 127.0.0.1 (test/fixtures/servers/oauth-protected-server.mjs): a workload
 * presents the JWT its platform gave it — from a token file that the platform rotates, or inline —
 * as a public client, with no person involved; a refused JWT is an authorization error, and no
 * other grant is tried; the JWT never reaches a log line.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ErrorCode } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import type { OAuthFixture } from '../fixtures/servers/oauth-protected-server.mjs';
import { expectNoSecrets, oauthTestBed, rejection } from '../helpers/oauth-test-bed.js';
import { recordingLogger } from '../helpers/recording-logger.js';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/** The platform's signing key (the authorization server trusts its public half). */
function platformKeys(): { privateKey: KeyObject; publicPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

/** A workload JWT as a platform issues it: RS256, for `audience`, valid for a minute. */
function workloadJwt(privateKey: KeyObject, subject: string, audience: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const body = `${part({ alg: 'RS256', typ: 'JWT' })}.${part({ iss: 'https://platform.example', sub: subject, aud: audience, iat: now, exp: now + 60 })}`;
  return `${body}.${sign('sha256', Buffer.from(body), privateKey).toString('base64url')}`;
}

const bed = oauthTestBed();
let fixture: OAuthFixture | undefined;

async function open(entry: Record<string, unknown>, logger?: Logger) {
  return bed.open(entry, logger === undefined ? {} : { logger });
}

describe('jwt-bearer with a workload JWT', () => {
  test('presents the JWT of the token file as a public client, and reads the file again after the platform rotated it', async () => {
    const platform = platformKeys();
    fixture = await bed.start({ clients: [{ id: 'workload' }], grantTypes: [JWT_BEARER_GRANT], workloadKey: platform.publicPem });
    const file = join(await bed.folder('switchboard-wif-'), 'token');
    const first = workloadJwt(platform.privateKey, 'job-1', fixture.issuer);
    await writeFile(file, `${first}\n`);
    const logger = recordingLogger();
    const connection = await open({ url: fixture.url, oauth: { grant: 'jwt-bearer', clientId: 'workload', assertionFile: file, scopes: ['mcp:read'] } }, logger);

    expect((await connection.callTool('whoami', {})).content[0]).toMatchObject({ text: 'workload mcp:read' });
    expect(fixture.log.tokenRequests).toEqual([expect.objectContaining({ grantType: JWT_BEARER_GRANT, authMethod: 'none', clientId: 'workload', assertionValid: true, assertionSubject: 'job-1', resource: fixture.url })]);
    expect(fixture.log.authorizations).toHaveLength(0);

    // The platform rotates the token; the server revokes what it issued: the next call gets a 401.
    const second = workloadJwt(platform.privateKey, 'job-2', fixture.issuer);
    await writeFile(file, second);
    fixture.revokeAccessTokens();
    expect((await connection.callTool('whoami', {})).content[0]).toMatchObject({ text: 'workload mcp:read' });
    expect(fixture.log.tokenRequests.map((request) => request.assertionSubject)).toEqual(['job-1', 'job-2']);
    expectNoSecrets(logger, [first, second, ...fixture.secrets()]);
  });

  test('an inline JWT (from ${VAR}) works the same', async () => {
    const platform = platformKeys();
    fixture = await bed.start({ clients: [{ id: 'workload' }], grantTypes: [JWT_BEARER_GRANT], workloadKey: platform.publicPem });
    const connection = await open({ url: fixture.url, oauth: { grant: 'jwt-bearer', clientId: 'workload', assertion: workloadJwt(platform.privateKey, 'job-inline', fixture.issuer) } });

    await connection.callTool('whoami', {});
    expect(fixture.log.tokenRequests.map((request) => [request.grantType, request.assertionSubject])).toEqual([[JWT_BEARER_GRANT, 'job-inline']]);
  });

  test('a JWT the authorization server refuses is an authorization error naming invalid_grant; no other grant is tried', async () => {
    fixture = await bed.start({ clients: [{ id: 'workload' }], grantTypes: [JWT_BEARER_GRANT, 'authorization_code'], workloadKey: platformKeys().publicPem });
    const forged = workloadJwt(platformKeys().privateKey, 'intruder', fixture.issuer);
    const error = await rejection(open({ url: fixture.url, oauth: { grant: 'jwt-bearer', clientId: 'workload', assertion: forged } }));

    expect(error.code).toBe(ErrorCode.ServerUnauthorized);
    expect(error.details).toMatchObject({ oauthError: 'invalid_grant' });
    expect(error.message).not.toContain(forged);
    expect(fixture.log.tokenRequests.map((request) => request.grantType)).toEqual([JWT_BEARER_GRANT]);
    expect(fixture.log.authorizations).toHaveLength(0);
  });

  test('a missing token file says which file, and nothing is sent', async () => {
    fixture = await bed.start({ clients: [{ id: 'workload' }], grantTypes: [JWT_BEARER_GRANT], workloadKey: platformKeys().publicPem });
    const file = join(await bed.folder('switchboard-wif-'), 'not-mounted-yet');
    const error = await rejection(open({ url: fixture.url, oauth: { grant: 'jwt-bearer', clientId: 'workload', assertionFile: file } }));

    expect(error.message).toContain(`cannot read the workload token file ${file}: ENOENT`);
    expect(fixture.log.tokenRequests).toHaveLength(0);
  });
});
