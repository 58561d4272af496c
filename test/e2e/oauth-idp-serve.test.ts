/**
 * `switchboard serve --idp-*`: sign-in through the admin's OpenID provider configured from the
 * command line alone. The built CLI serves; a small real OpenID provider on 127.0.0.1 holds the
 * gateway as a confidential client whose secret comes from the environment variable the flags name;
 * Chromium clicks the sign-in button on the gateway's page, the provider signs in an allowed person,
 * and the gateway creates them and issues their token. Incomplete flags are refused with a clear
 * message before anything listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromiumMissing, launchChromium } from '../helpers/chromium.js';
import { authorizeInBrowser } from '../helpers/oauth-browser.js';
import { pkcePair, registerClient, tokenRequest } from '../helpers/oauth-flow.js';
import { waitFor } from '../helpers/processes.js';
import { SWITCHBOARD_BIN, runCli } from '../helpers/run-cli.js';
import { startTestOpenIdProvider, type TestOpenIdProvider } from '../helpers/test-openid-provider.js';
import { closePage } from '../helpers/close-page.js';

const missing = chromiumMissing();
const REDIRECT = 'http://127.0.0.1:9/idp-serve-callback';
const SECRET = 'idp-client-secret-0123456789';
let dir: string;
let idp: TestOpenIdProvider;
let serve: ChildProcess | undefined;
let output = '';
let base: string;
let browser: Awaited<ReturnType<typeof launchChromium>>;

/** A free port on 127.0.0.1 (the provider must know the gateway's callback before it starts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sb-idp-serve-'));
  idp = await startTestOpenIdProvider();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  await idp.accept({ clientId: 'switchboard-gw', redirectUri: `${base}/oauth/idp/callback`, secret: SECRET });
  const flags = ['--idp-issuer', idp.issuer, '--idp-client-id', 'switchboard-gw', '--idp-client-secret-env', 'GW_IDP_SECRET', '--idp-allow', '@example.com', '--idp-create-users', '--idp-label', 'Sign in with Example SSO'];
  serve = spawn(process.execPath, [SWITCHBOARD_BIN, 'serve', '--port', String(port), ...flags], { cwd: dir, env: { ...process.env, NO_COLOR: '1', GW_IDP_SECRET: SECRET, SWITCHBOARD_TOKEN: undefined, SWITCHBOARD_DB: undefined, SWITCHBOARD_CONFIG: undefined }, stdio: ['ignore', 'pipe', 'pipe'] });
  serve.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  serve.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => {
    if (serve?.exitCode !== null) throw new Error(`serve exited: ${output}`);
    return output.includes(`listening on ${base}`);
  }, 20_000, 'the gateway banner');
  if (missing === undefined) browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (serve !== undefined && serve.exitCode === null) {
    const exited = new Promise((resolve) => serve?.once('exit', resolve));
    serve.kill('SIGTERM');
    await exited;
  }
  await idp?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(missing !== undefined)('serve --idp-*', () => {
  test('an allowed person signs in through the provider (confidential client, secret from the environment) and gets their token', async () => {
    idp.nextLogin = 'dora@example.com';
    const registered = (await (await registerClient(base, { client_name: 'IdP serve client', redirect_uris: [REDIRECT] })).json()) as { client_id: string };
    const pkce = pkcePair();
    const query = new URLSearchParams({ response_type: 'code', client_id: registered.client_id, redirect_uri: REDIRECT, scope: 'mcp', state: 's', code_challenge: pkce.challenge, code_challenge_method: 'S256', resource: `${base}/mcp` });
    const page = await browser.context.newPage();
    await page.goto(`${base}/oauth/authorize?${query}`);
    expect(await page.locator('#idp').innerText()).toContain('Sign in with Example SSO');
    await closePage(page);
    const redirect = await authorizeInBrowser(browser.context, `${base}/oauth/authorize?${query}`, { identityProvider: true, redirectPrefix: REDIRECT });
    expect(redirect.consentText).toContain('as dora@example.com');
    const answer = await tokenRequest(base, { grant_type: 'authorization_code', code: redirect.url.searchParams.get('code') ?? '', code_verifier: pkce.verifier, client_id: registered.client_id, redirect_uri: REDIRECT, resource: `${base}/mcp` });
    expect(answer.status).toBe(200);
    const me = await fetch(`${base}/api/me`, { headers: { authorization: `Bearer ${String(answer.body.access_token)}` } });
    expect(await me.json()).toMatchObject({ user: { name: 'dora@example.com' } });
    // The secret never reaches the logs.
    expect(output).not.toContain(SECRET);
  }, 60_000);
});

test('incomplete --idp-* flags are refused before anything listens', async () => {
  const noAllow = await runCli(['serve', '--port', '0', '--idp-issuer', 'https://accounts.example.com', '--idp-client-id', 'gw'], { cwd: dir });
  expect(noAllow.code).not.toBe(0);
  expect(noAllow.stderr).toContain('--idp-issuer needs --idp-allow');
  const unset = await runCli(['serve', '--port', '0', '--idp-issuer', 'https://accounts.example.com', '--idp-client-id', 'gw', '--idp-allow', '@x.example', '--idp-client-secret-env', 'SB_NO_SUCH_SECRET_VAR'], { cwd: dir });
  expect(unset.stderr).toContain('SB_NO_SUCH_SECRET_VAR, which is not set');
  const noIssuer = await runCli(['serve', '--port', '0', '--idp-client-id', 'gw'], { cwd: dir });
  expect(noIssuer.stderr).toContain('need --idp-issuer');
}, 60_000);
