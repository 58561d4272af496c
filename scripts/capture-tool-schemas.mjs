#!/usr/bin/env node
/**
 * Captures the `tools/list` answers of the real npm MCP servers this project is tried with, into
 * test/fixtures/tool-schemas/real-servers.json, for the differential test of the argument checker
 * (src/client/call/real-server-schemas.test.ts). Run it again after upgrading one of them:
 *
 *   node scripts/capture-tool-schemas.mjs
 *
 * Each server runs from node_modules (its pinned devDependency), over stdio, with the SDK's own
 * client: the schemas are exactly what the servers send. No network is needed: server-github and
 * context7 list their tools without a token or a request; postgres needs the local PostgreSQL;
 * @playwright/mcp and chrome-devtools-mcp list tools without starting a browser.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const ROOT = resolve(import.meta.dirname, '..');
const OUTPUT = resolve(ROOT, 'test/fixtures/tool-schemas/real-servers.json');
const TIMEOUT_MS = 60_000;

const folder = mkdtempSync(join(tmpdir(), 'switchboard-capture-'));
/** package → arguments after its bin. */
const SERVERS = [
  ['@modelcontextprotocol/server-everything', 'dist/index.js', ['stdio']],
  ['@modelcontextprotocol/server-filesystem', 'dist/index.js', [folder]],
  ['@modelcontextprotocol/server-memory', 'dist/index.js', []],
  ['@modelcontextprotocol/server-sequential-thinking', 'dist/index.js', []],
  ['@modelcontextprotocol/server-postgres', 'dist/index.js', ['postgresql://postgres@127.0.0.1:5432/postgres']],
  ['@modelcontextprotocol/server-github', 'dist/index.js', []],
  ['@upstash/context7-mcp', 'dist/index.js', []],
  ['@playwright/mcp', 'cli.js', ['--headless', '--isolated']],
  ['chrome-devtools-mcp', 'build/src/bin/chrome-devtools-mcp.js', ['--headless', '--isolated']],
];

async function capture([name, entry, args]) {
  const directory = resolve(ROOT, 'node_modules', name);
  const { version } = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(directory, entry), ...args], env: { PATH: process.env.PATH ?? '', HOME: folder }, cwd: folder, stderr: 'ignore' });
  const client = new Client({ name: 'capture-tool-schemas', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: TIMEOUT_MS });
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: TIMEOUT_MS });
      tools.push(...page.tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema })));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { package: name, version, tools };
  } finally {
    await client.close();
  }
}

try {
  const servers = [];
  for (const server of SERVERS) {
    const captured = await capture(server);
    process.stderr.write(`${captured.package}@${captured.version}: ${captured.tools.length} tools\n`);
    servers.push(captured);
  }
  writeFileSync(OUTPUT, `${JSON.stringify({ generatedBy: 'scripts/capture-tool-schemas.mjs', servers }, null, 1)}\n`);
  process.stderr.write(`wrote ${OUTPUT}\n`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
