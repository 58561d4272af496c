/**
 * What the OAuth integration tests share: the protected-server fixture of the running test and the
 * connections and folders it opened (closed or removed after each test), a headless login, the check
 * that no secret reached a log, and the SwitchboardError a promise rejects with.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import type { AuthorizationUrlHandler } from '../../src/auth/authorization-callback.js';
import { ServerConnection } from '../../src/connection/server-connection.js';
import { isSwitchboardError, type SwitchboardError } from '../../src/errors.js';
import { startOAuthProtectedServer, type OAuthFixture, type OAuthFixtureOptions } from '../fixtures/servers/oauth-protected-server.mjs';
import { specOf } from './fixtures.js';
import type { RecordedLine } from './recording-logger.js';

/** The fixture, connections and folders of one test file; everything ends after each test. */
export interface OAuthTestBed {
  /** Starts the test's fixture (a fixture started before in the same test is closed first). */
  start(options?: OAuthFixtureOptions): Promise<OAuthFixture>;
  /** A connected {@link ServerConnection} to the entry `remote`. */
  open(entry: Record<string, unknown>, options?: ConstructorParameters<typeof ServerConnection>[1]): Promise<ServerConnection>;
  /** A new temporary folder. */
  folder(prefix: string): Promise<string>;
}

/** Registers the clean-up with the file's tests; call at the top of a test file. */
export function oauthTestBed(): OAuthTestBed {
  let fixture: OAuthFixture | undefined;
  const connections: ServerConnection[] = [];
  const directories: string[] = [];
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((connection) => connection.close()));
    await fixture?.close();
    fixture = undefined;
    await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
  });
  return {
    async start(options) {
      await fixture?.close();
      fixture = await startOAuthProtectedServer(options);
      return fixture;
    },
    async open(entry, options = {}) {
      const connection = new ServerConnection(specOf('remote', entry), options);
      connections.push(connection);
      await connection.connect();
      return connection;
    },
    async folder(prefix) {
      const directory = await mkdtemp(join(tmpdir(), prefix));
      directories.push(directory);
      return directory;
    },
  };
}

/** A program that follows the authorization URL itself; the fixture's server approves at once. */
export const headless: AuthorizationUrlHandler = async (url) => {
  const response = await fetch(url, { redirect: 'manual' });
  await response.text();
  return response.headers.get('location') ?? '';
};

/** Fails when any of `secrets` reached a line of `logger` (a {@link recordingLogger}). */
export function expectNoSecrets(logger: { lines: RecordedLine[] }, secrets: string[]): void {
  expect(secrets.length).toBeGreaterThan(0);
  const text = JSON.stringify(logger.lines);
  for (const secret of secrets) expect(text.includes(secret), 'a secret reached the log').toBe(false);
}

/** The SwitchboardError `promise` rejects with (anything else fails the test). */
export async function rejection(promise: Promise<unknown>): Promise<SwitchboardError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!isSwitchboardError(error)) throw new Error(`expected a SwitchboardError, got ${String(error)}`);
  return error;
}
