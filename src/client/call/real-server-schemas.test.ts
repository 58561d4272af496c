/**
 * The argument checker against the tool schemas of the real npm servers this project is used with
 * (captured by scripts/capture-tool-schemas.mjs into test/fixtures/tool-schemas/real-servers.json,
 * with the versions). For schema-guided random arguments (seeded): the fast check is never more
 * lenient than Ajv, and the whole check is never stricter than the server — taken here as the
 * schema with the server's defaults applied first (Ajv with `useDefaults`), which is what a zod
 * server does.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv } from '@modelcontextprotocol/client/validators/ajv';
import { describe, expect, it } from 'vitest';
import { ArgumentValidator } from './argument-validator.js';
import { toLenientSchema } from './lenient-schema.js';
import { compileSimpleSchema } from './simple-schema.js';
import { pick, seededRandom, type Rand } from '../../../test/helpers/seeded-random.js';

const ROOT = resolve(import.meta.dirname, '../../..');

interface CapturedServer {
  package: string;
  version: string;
  tools: Array<{ name: string; inputSchema: Record<string, unknown> }>;
}

const captured = JSON.parse(readFileSync(resolve(ROOT, 'test/fixtures/tool-schemas/real-servers.json'), 'utf8')) as { servers: CapturedServer[] };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const JUNK: unknown[] = ['', 'x', 'https://example.com', -1, 0, 1, 2.5, 1e9, true, false, null, [], ['a'], {}, { a: 1 }];

function resolveRef(root: Record<string, unknown>, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(1).split('/').filter((segment) => segment !== '')) node = isRecord(node) ? node[decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  return node;
}

/** Mostly plausible arguments for `schema`, sometimes wrong in one place, sometimes missing what has a default. */
function valueFor(rand: Rand, schema: unknown, root: Record<string, unknown>, depth: number): unknown {
  if (!isRecord(schema) || depth > 6) return pick(rand, JUNK);
  if (typeof schema.$ref === 'string') return valueFor(rand, resolveRef(root, schema.$ref), root, depth + 1);
  if (rand() < 0.08) return pick(rand, JUNK);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return pick(rand, schema.enum);
  if ('const' in schema) return schema.const;
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union !== undefined && union.length > 0) return valueFor(rand, pick(rand, union), root, depth + 1);
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : isRecord(schema.properties) ? ['object'] : ['string', 'number', 'boolean'];
  switch (pick(rand, types)) {
    case 'string':
      return pick(rand, ['', 'a', 'hello world', '/tmp/x.txt', 'https://example.com', '2026-01-01', 'owner/repo']);
    case 'number':
      return pick(rand, [0, 1, 2.5, -3, 100, 1e6]);
    case 'integer':
      return pick(rand, [0, 1, 2, 10, -1, 1000]);
    case 'boolean':
      return rand() < 0.5;
    case 'null':
      return null;
    case 'array': {
      const length = Math.floor(rand() * 3);
      const items = Array.isArray(schema.prefixItems) ? schema.prefixItems : undefined;
      return Array.from({ length: items?.length ?? length }, (_, index) => valueFor(rand, items?.[index] ?? schema.items, root, depth + 1));
    }
    case 'object': {
      const value: Record<string, unknown> = {};
      const properties = isRecord(schema.properties) ? schema.properties : {};
      const required = new Set(Array.isArray(schema.required) ? schema.required : []);
      for (const [name, property] of Object.entries(properties)) {
        const hasDefault = isRecord(property) && 'default' in property;
        // Required properties are mostly given; those with a default are left out half of the time.
        const give = required.has(name) ? (hasDefault ? rand() < 0.5 : rand() < 0.9) : rand() < 0.4;
        if (give) value[name] = valueFor(rand, property, root, depth + 1);
      }
      if (rand() < 0.05) value.unexpected = 'x';
      return value;
    }
    default:
      return pick(rand, JUNK);
  }
}

describe('the argument checker on the real servers\' schemas', () => {
  it('the fixture holds the installed versions (run `node scripts/capture-tool-schemas.mjs` after an upgrade)', () => {
    expect(captured.servers.map((server) => server.package).sort()).toEqual(
      ['@modelcontextprotocol/server-everything', '@modelcontextprotocol/server-filesystem', '@modelcontextprotocol/server-github', '@modelcontextprotocol/server-memory', '@modelcontextprotocol/server-postgres', '@modelcontextprotocol/server-sequential-thinking', '@playwright/mcp', '@upstash/context7-mcp', 'chrome-devtools-mcp'].sort(),
    );
    for (const server of captured.servers) {
      const installed = (JSON.parse(readFileSync(resolve(ROOT, 'node_modules', server.package, 'package.json'), 'utf8')) as { version: string }).version;
      expect({ package: server.package, version: server.version }).toEqual({ package: server.package, version: installed });
      expect(server.tools.length).toBeGreaterThan(0);
    }
  });

  it('is never more lenient than Ajv and never stricter than the server (seeded arguments for every tool)', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
    // The server: its defaults are applied before it validates.
    const server = new Ajv({ strict: false, allErrors: true, validateFormats: false, useDefaults: true });
    const validator = new ArgumentValidator();
    let tools = 0;
    let fastAccepted = 0;
    let serverAccepted = 0;
    let serverRejected = 0;
    let defaultedLeftOut = 0;
    // Shown on failure: server, tool and seed reproduce the case.
    const tooLenient: unknown[] = [];
    const tooStrict: unknown[] = [];
    for (const { package: name, tools: list } of captured.servers) {
      for (const tool of list) {
        tools++;
        const { $schema: _dialect, ...schema } = tool.inputSchema;
        const lenient = toLenientSchema(schema);
        const fast = compileSimpleSchema(lenient);
        const validate = ajv.compile(lenient);
        const serverValidate = server.compile(schema);
        for (let seed = 1; seed <= 120; seed++) {
          const rand = seededRandom(seed * 7_919 + tools);
          const args = valueFor(rand, schema, schema, 0);
          if (fast?.(args) === true) {
            fastAccepted++;
            if (!validate(args)) tooLenient.push({ server: name, tool: tool.name, seed, args, ajv: validate.errors });
          }
          const accepts = serverValidate(structuredClone(args));
          if (!accepts) {
            serverRejected++;
            continue;
          }
          serverAccepted++;
          if (isRecord(args) && JSON.stringify(args) !== JSON.stringify(fillDefaults(serverValidate, args))) defaultedLeftOut++;
          const problems = await validator.validate(tool.inputSchema, args);
          if (problems.length > 0) tooStrict.push({ server: name, tool: tool.name, seed, args, problems });
        }
      }
    }
    expect(tooLenient).toEqual([]);
    expect(tooStrict).toEqual([]);
    // The generator must reach every path, or this test proves nothing.
    expect(tools).toBeGreaterThan(100);
    expect(fastAccepted).toBeGreaterThan(3_000);
    expect(serverAccepted).toBeGreaterThan(5_000);
    expect(serverRejected).toBeGreaterThan(1_000);
    expect(defaultedLeftOut).toBeGreaterThan(100);
  });

  it('@playwright/mcp browser_take_screenshot: `{}` is accepted, a wrong `scale` is not', async () => {
    const playwright = captured.servers.find((server) => server.package === '@playwright/mcp');
    const screenshot = playwright?.tools.find((tool) => tool.name === 'browser_take_screenshot');
    expect(screenshot?.inputSchema.required).toEqual(['scale']);
    const validator = new ArgumentValidator();
    expect(await validator.validate(screenshot?.inputSchema ?? {}, {})).toEqual([]);
    expect(await validator.validate(screenshot?.inputSchema ?? {}, { scale: 'huge' })).toEqual([{ path: 'scale', message: 'must be one of ["css","device"]' }]);
  });
});

/** The arguments as the server sees them once its defaults are filled in. */
function fillDefaults(validate: (data: unknown) => boolean, args: Record<string, unknown>): unknown {
  const copy = structuredClone(args);
  validate(copy);
  return copy;
}
