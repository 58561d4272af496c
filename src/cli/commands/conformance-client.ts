/**
 * @module cli/commands/conformance-client
 * `switchboard conformance-client URL` (hidden): the client the official MCP conformance suite drives
 * (`npm run conformance`). It does what any program using the library does, through the public API
 * only (`../../index.js`): configure the URL as a server, connect, list the tools and call each with
 * arguments built from its schema, answer elicitations (the SDK fills schema defaults), close.
 *
 * The only input besides the URL is configuration: `MCP_CONFORMANCE_CONTEXT` may carry OAuth client
 * credentials (client id and secret, a private key, a workload's JWT, an identity provider's ID token), which become the
 * server's `oauth:` settings exactly as a user would write them, and the tool calls a scenario asks
 * for (`toolCalls: [{name, arguments}]`), which are then made instead of one call per listed tool; one
 * scenario that asks for a call in its instructions only (`MCP_CONFORMANCE_SCENARIO`) is planned in
 * {@link echoCallsFor}. Logins are completed headlessly: the
 * authorization URL is fetched without following redirects and the redirect is handed back, which
 * works with authorization servers that approve at once (as the suite's do).
 */

import { MemoryOAuthTokenStore, MultiServerClient, isSwitchboardError } from '../../index.js';
import type { AuthorizationUrlHandler, JsonSchema, Logger } from '../../index.js';
import { CliExit, ExitCode } from '../cli-error.js';
import { writeResult } from '../output.js';

/** The client ID metadata document URL this client publishes (SEP-991; the suite expects exactly it). */
export const CONFORMANCE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** Where the (never served) headless redirect points. */
const REDIRECT_URL = 'http://127.0.0.1:3334/callback';

/** Options of {@link conformanceClient}. */
export interface ConformanceClientOptions {
  url: string;
  logger: Logger;
  /** @default process.env.MCP_CONFORMANCE_CONTEXT */
  context?: string | undefined;
}

/** Connects, lists and calls every tool; exits 1 when connecting fails. */
export async function conformanceClient(options: ConformanceClientOptions): Promise<void> {
  const context = options.context ?? process.env.MCP_CONFORMANCE_CONTEXT;
  const oauth = oauthSettingsFromContext(context);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const client = await MultiServerClient.connect(
    { mcpServers: { server: { url: options.url, oauth } }, onServerError: 'throw' },
    {
      logger: options.logger,
      retryFailedServers: false,
      oauth: { store: new MemoryOAuthTokenStore(), onAuthorizationUrl: followAuthorizationRedirect, redirectUrl: REDIRECT_URL },
      // Accept with no content of our own: the SDK applies the schema's defaults (elicitation.form.applyDefaults).
      onElicitation: async () => ({ action: 'accept', content: {} }),
    },
  ).catch((error: unknown) => {
    throw new CliExit(ExitCode.Failed, isSwitchboardError(error) ? `${error.code}: ${error.message}` : String(error));
  });
  let failed = 0;
  try {
    const tools = client.listTools();
    const plannedCalls = toolCallsFromContext(context) ?? echoCallsFor(scenario, tools);
    // Planned calls go only to tools the catalogue holds: a tool the library excluded is not callable.
    const calls =
      plannedCalls?.flatMap((call) => {
        const tool = tools.find((candidate) => candidate.name === call.name);
        return tool === undefined ? [] : [{ name: call.name, arguments: withoutOptionalNulls(tool.inputSchema, call.arguments) }];
      }) ?? tools.map((tool) => ({ name: tool.name, arguments: argumentsFromSchema(tool.inputSchema) }));
    for (const call of calls) {
      try {
        const result = await client.callTool(call.name, call.arguments);
        writeResult(JSON.stringify({ tool: call.name, isError: result.isError }));
      } catch (error) {
        failed++;
        writeResult(JSON.stringify({ tool: call.name, error: isSwitchboardError(error) ? error.toJSON() : String(error) }));
      }
    }
  } finally {
    await client.close();
  }
  // A failing call is reported, not fatal: the suite judges the calls through its own checks, and some
  // scenarios serve tools that are meant to fail.
  if (failed > 0) options.logger.warn(`${failed} tool call${failed === 1 ? '' : 's'} failed`);
}

/** Context keys of the suite → `oauth:` settings. Without credentials: a metadata-document client. */
export function oauthSettingsFromContext(text: string | undefined): Record<string, unknown> {
  const context = parseObject(text);
  const string = (key: string): string | undefined => (typeof context[key] === 'string' ? (context[key] as string) : undefined);
  const clientId = string('client_id');
  if (clientId === undefined) return { clientMetadataUrl: CONFORMANCE_CLIENT_METADATA_URL };
  const settings: Record<string, unknown> = { clientId };
  const clientSecret = string('client_secret');
  if (clientSecret !== undefined) settings.clientSecret = clientSecret;
  const privateKey = string('private_key_pem');
  if (privateKey !== undefined) {
    settings.grant = 'client_credentials';
    settings.privateKey = privateKey;
    settings.signingAlgorithm = string('signing_algorithm') ?? 'RS256';
  }
  // Workload identity federation: the platform's JWT for this workload, presented as is.
  const workloadJwt = string('valid_jwt');
  if (workloadJwt !== undefined) {
    settings.grant = 'jwt-bearer';
    settings.assertion = workloadJwt;
  }
  const idToken = string('idp_id_token');
  const idpClientId = string('idp_client_id');
  if (idToken !== undefined && idpClientId !== undefined) {
    settings.grant = 'jwt-bearer';
    const tokenEndpoint = string('idp_token_endpoint');
    const issuer = string('idp_issuer');
    settings.idp = { clientId: idpClientId, idToken, ...(tokenEndpoint === undefined ? {} : { tokenEndpoint }), ...(issuer === undefined ? {} : { url: issuer }) };
  }
  return settings;
}

/** The calls a scenario asks for (`toolCalls` in the context), or undefined when it names none. */
export function toolCallsFromContext(text: string | undefined): Array<{ name: string; arguments: Record<string, unknown> }> | undefined {
  const toolCalls = parseObject(text).toolCalls;
  if (!Array.isArray(toolCalls)) return undefined;
  const calls: Array<{ name: string; arguments: Record<string, unknown> }> = [];
  for (const call of toolCalls) {
    if (typeof call !== 'object' || call === null || typeof (call as { name?: unknown }).name !== 'string') continue;
    const args = (call as { arguments?: unknown }).arguments;
    const isRecord = typeof args === 'object' && args !== null && !Array.isArray(args);
    calls.push({ name: (call as { name: string }).name, arguments: isRecord ? (args as Record<string, unknown>) : {} });
  }
  return calls;
}

/** The suite's schema round trip: the echo tool gets the focal tool's input schema as the catalogue holds it. */
const SCHEMA_ECHO = { scenario: 'json-schema-2020-12-preservation', focal: 'json_schema_2020_12_tool', echo: 'json_schema_echo' };

/**
 * The calls of a scenario whose instructions ask for one the context does not carry: in
 * `json-schema-2020-12-preservation` the client sends the schema it listed back through an echo tool,
 * so the suite judges what the library's catalogue kept of it ($schema, $defs, composition, …).
 */
export function echoCallsFor(scenario: string | undefined, tools: ReadonlyArray<{ name: string; inputSchema: JsonSchema }>): Array<{ name: string; arguments: Record<string, unknown> }> | undefined {
  if (scenario !== SCHEMA_ECHO.scenario) return undefined;
  const focal = tools.find((tool) => tool.name === SCHEMA_ECHO.focal);
  if (focal === undefined || !tools.some((tool) => tool.name === SCHEMA_ECHO.echo)) return undefined;
  return [{ name: SCHEMA_ECHO.echo, arguments: { schema: focal.inputSchema } }];
}

/**
 * The arguments without a `null` given for an optional property whose schema does not allow null:
 * such a null means "not given" (as the adapters read a model's nulls), and the library refuses it.
 */
export function withoutOptionalNulls(schema: JsonSchema, args: Record<string, unknown>): Record<string, unknown> {
  const record = schema as { properties?: unknown; required?: unknown };
  const properties = typeof record.properties === 'object' && record.properties !== null ? (record.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(record.required) ? record.required : []);
  const allowsNull = (property: unknown): boolean => {
    const type = (property as { type?: unknown } | null)?.type;
    return type === undefined || type === 'null' || (Array.isArray(type) && type.includes('null'));
  };
  return Object.fromEntries(Object.entries(args).filter(([name, value]) => value !== null || required.has(name) || allowsNull(properties[name])));
}

/** A headless login: the authorization server redirects at once; the redirect is the answer. */
const followAuthorizationRedirect: AuthorizationUrlHandler = async (authorizationUrl, context) => {
  const response = await fetch(authorizationUrl, { redirect: 'manual', ...(context.signal === undefined ? {} : { signal: context.signal }) });
  await response.text().catch(() => '');
  return response.headers.get('location') ?? '';
};

/** Arguments for a tool: each property's default, else a value of its type. */
export function argumentsFromSchema(schema: JsonSchema): Record<string, unknown> {
  const properties = (schema as { properties?: unknown }).properties;
  const result: Record<string, unknown> = {};
  if (typeof properties !== 'object' || properties === null) return result;
  for (const [name, property] of Object.entries(properties as Record<string, unknown>)) result[name] = valueFor(property);
  return result;
}

function valueFor(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return 'test';
  const record = schema as Record<string, unknown>;
  if ('default' in record) return record.default;
  if (Array.isArray(record.enum) && record.enum.length > 0) return record.enum[0];
  const type = Array.isArray(record.type) ? record.type[0] : record.type;
  switch (type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return argumentsFromSchema(record as JsonSchema);
    case 'null':
      return null;
    default:
      return 'test';
  }
}

function parseObject(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
