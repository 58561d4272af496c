/**
 * Client-side argument checking is never stricter than the server (issue 15, defect 2): the real
 * @playwright/mcp lists `browser_take_screenshot` with `scale` required and defaulted, and accepts
 * `{}`. The call must reach the server from the library, the CLI and the gateway. Without Chromium
 * the server answers with its own error (no browser); with Chromium (/usr/bin/chromium, or
 * $CHROMIUM_PATH) it takes the screenshot. Either way the refusal is not ours. The gateway also
 * advertises the relaxed schema in `tools/list`, so a downstream client that checks arguments itself
 * does not refuse `{}` either.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { JsonSchemaType } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { JsonSchema } from '../../src/connection/mcp-types.js';
import { isSwitchboardError } from '../../src/errors.js';
import type { ToolResult } from '../../src/result/tool-result.js';
import { CHROMIUM_PATH, chromiumMissing } from '../helpers/chromium.js';
import { connectForEachTest } from '../helpers/connect-for-each-test.js';
import { ROOT } from '../helpers/fixtures.js';
import { connectV2, startTestGateway } from '../helpers/gateway.js';
import { runCli } from '../helpers/run-cli.js';

const hasChromium = chromiumMissing() === undefined;
// A browser start on a loaded machine takes seconds; the CLI case starts one in a new process.
const BROWSER_TEST_MS = 90_000;
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'switchboard-playwright-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The real @playwright/mcp, headless, on Debian's Chromium where it is installed. */
function playwrightEntry(): Record<string, unknown> {
  const browser = hasChromium ? ['--browser', 'chromium', '--executable-path', CHROMIUM_PATH, '--no-sandbox'] : [];
  return { command: process.execPath, args: [resolve(ROOT, 'node_modules/@playwright/mcp/cli.js'), '--headless', '--isolated', '--output-dir', directory, ...browser], cwd: directory };
}

/** What the server made of the call: a screenshot with a browser, its own "not installed" error without. */
function expectAnsweredByServer(result: ToolResult): void {
  if (hasChromium) {
    expect(result.isError).toBe(false);
    expect(result.content.some((part) => part.type === 'image')).toBe(true);
  } else {
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/not installed|not found/i);
  }
}

const connect = connectForEachTest();

test('library: browser_take_screenshot with {} reaches @playwright/mcp (scale is required but has a default)', async () => {
  const client = await connect({ mcpServers: { playwright: playwrightEntry() } });
  const tool = client.getTool('browser_take_screenshot');
  expect(tool?.inputSchema.required).toEqual(['scale']);
  const result = await client.callTool('browser_take_screenshot', {}).catch((error: unknown) => {
    if (isSwitchboardError(error)) return error;
    throw error;
  });
  expect(isSwitchboardError(result) ? { code: result.code, message: result.message } : 'reached the server').toBe('reached the server');
  if (!isSwitchboardError(result)) expectAnsweredByServer(result);
  // A wrong value is still refused here, with the field named.
  await expect(client.callTool('browser_take_screenshot', { scale: 'huge' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('`scale` must be one of ["css","device"]') });
}, BROWSER_TEST_MS);

test('CLI: `switchboard call browser_take_screenshot` with no arguments is not refused', async () => {
  const config = join(directory, 'switchboard.json');
  writeFileSync(config, JSON.stringify({ mcpServers: { playwright: playwrightEntry() } }));
  const run = await runCli(['call', 'browser_take_screenshot', '--config', config, '--json'], { timeoutMs: 60_000 });
  expect(run.stderr).not.toMatch(/INVALID_ARGUMENT|is required but missing/);
  expect(run.code, run.stderr).toBe(hasChromium ? 0 : 1);
  expectAnsweredByServer(JSON.parse(run.stdout) as ToolResult);
}, BROWSER_TEST_MS);

test('gateway: tools/call browser_take_screenshot with {} reaches @playwright/mcp', async () => {
  const gateway = await startTestGateway({ servers: { playwright: playwrightEntry() } });
  try {
    const client = await connectV2(gateway.mcpUrl, gateway.adminToken, 'legacy');
    try {
      const result = await client.callTool({ name: 'browser_take_screenshot', arguments: {} });
      expect(JSON.stringify(result.content)).not.toMatch(/INVALID_ARGUMENT|is required but missing/);
      // On the wire `isError` may be left out when false.
      expectAnsweredByServer({ ...(result as unknown as ToolResult), isError: result.isError === true });
    } finally {
      await client.close();
    }
  } finally {
    await gateway.close();
  }
}, BROWSER_TEST_MS);

test('gateway: tools/list advertises browser_take_screenshot with no defaulted property required, in both eras; defaults and the rest kept', async () => {
  const gateway = await startTestGateway({ servers: { playwright: playwrightEntry() } });
  try {
    const lease = await gateway.running.gateway.lease(gateway.admin);
    let original: JsonSchema | undefined;
    try {
      original = lease.client.getTool('browser_take_screenshot')?.inputSchema;
    } finally {
      lease.release();
    }
    const properties = (original?.properties ?? {}) as Record<string, Record<string, unknown>>;
    const defaulted = Object.keys(properties).filter((name) => Object.hasOwn(properties[name] ?? {}, 'default'));
    const required = Array.isArray(original?.required) ? original.required : [];
    // What @playwright/mcp writes: `scale` required, with a default (the schema the gateway must not pass on as is).
    expect(required).toContain('scale');
    expect(defaulted).toContain('scale');
    // A downstream client that checks arguments itself, with the SDK's own validator.
    const validator = new AjvJsonSchemaValidator();
    for (const mode of ['legacy', 'auto'] as const) {
      const client = await connectV2(gateway.mcpUrl, gateway.adminToken, mode);
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25');
        const advertised = (await client.listTools()).tools.find((tool) => tool.name === 'browser_take_screenshot')?.inputSchema;
        expect(advertised?.required ?? []).not.toContain('scale');
        for (const name of defaulted) expect(advertised?.required ?? []).not.toContain(name);
        expect(advertised?.properties?.scale).toEqual(properties.scale);
        // Only `required` changed.
        expect(advertised).toEqual({ ...original, type: 'object', required: required.filter((name) => !defaulted.includes(name)) });
        // As the client received it (JSON), typed as the validator takes it.
        const received: JsonSchemaType = JSON.parse(JSON.stringify(advertised ?? {}));
        const check = validator.getValidator(received);
        expect(check({})).toMatchObject({ valid: true });
        expect(check({ scale: 'huge' })).toMatchObject({ valid: false });
      } finally {
        await client.close();
      }
    }
  } finally {
    await gateway.close();
  }
}, BROWSER_TEST_MS);
