#!/usr/bin/env node
/**
 * Captures the full tool lists (name, title, description, input schema, annotations) of nine real npm
 * MCP servers into test/fixtures/tool-corpus/servers.json: the corpus of the tool-search evaluation
 * (test/fixtures/tool-corpus/requests.json, src/client/search/tool-search-eval.test.ts). Run it again
 * after upgrading one of them, then re-run the evaluation:
 *
 *   node scripts/capture-tool-corpus.mjs
 *
 * Each server runs from node_modules (its pinned devDependency) over stdio with the SDK's own client, so
 * the definitions are exactly what the servers send. No network is needed: server-github and context7
 * list their tools without a token; postgres needs the local PostgreSQL; @playwright/mcp and
 * chrome-devtools-mcp list tools without starting a browser.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const ROOT = resolve(import.meta.dirname, '..');
const OUTPUT = resolve(ROOT, 'test/fixtures/tool-corpus/servers.json');
const TIMEOUT_MS = 60_000;

const folder = mkdtempSync(join(tmpdir(), 'switchboard-corpus-'));
/** server name in the corpus → package, its entry file, arguments. */
const SERVERS = [
  ['everything', '@modelcontextprotocol/server-everything', 'dist/index.js', ['stdio']],
  ['filesystem', '@modelcontextprotocol/server-filesystem', 'dist/index.js', [folder]],
  ['memory', '@modelcontextprotocol/server-memory', 'dist/index.js', []],
  ['thinking', '@modelcontextprotocol/server-sequential-thinking', 'dist/index.js', []],
  ['postgres', '@modelcontextprotocol/server-postgres', 'dist/index.js', ['postgresql://postgres@127.0.0.1:5432/postgres']],
  ['github', '@modelcontextprotocol/server-github', 'dist/index.js', []],
  ['context7', '@upstash/context7-mcp', 'dist/index.js', []],
  ['playwright', '@playwright/mcp', 'cli.js', ['--headless', '--isolated']],
  ['devtools', 'chrome-devtools-mcp', 'build/src/bin/chrome-devtools-mcp.js', ['--headless', '--isolated']],
];

async function capture([server, name, entry, args]) {
  const directory = resolve(ROOT, 'node_modules', name);
  const { version } = JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [join(directory, entry), ...args], env: { PATH: process.env.PATH ?? '', HOME: folder }, cwd: folder, stderr: 'ignore' });
  const client = new Client({ name: 'capture-tool-corpus', version: '1.0.0' });
  try {
    await client.connect(transport, { timeout: TIMEOUT_MS });
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: TIMEOUT_MS });
      for (const tool of page.tools) {
        tools.push({
          name: tool.name,
          ...(tool.title === undefined ? {} : { title: tool.title }),
          ...(tool.description === undefined ? {} : { description: tool.description }),
          inputSchema: tool.inputSchema,
          ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
        });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return { server, package: name, version, tools };
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
  writeFileSync(OUTPUT, `${JSON.stringify({ generatedBy: 'scripts/capture-tool-corpus.mjs', servers }, null, 1)}\n`);
  process.stderr.write(`wrote ${OUTPUT}\n`);
} finally {
  rmSync(folder, { recursive: true, force: true });
}
