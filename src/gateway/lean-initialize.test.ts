import { describe, expect, test } from 'vitest';
import { instructionsOf } from './aggregated-server.js';
import { createSessionEngine, handshakeOf } from './legacy-session-engine.js';
import { leanInitializeAnswer, leanInitializeOf } from './lean-initialize.js';
import { dormantAnswerOf } from './dormant-answer.js';
import { projectLegacyCallToolResult } from './legacy-result-projection.js';
import { newDownstreamSession } from './downstream-session.js';
import type { UserEndpoint } from './user-endpoint.js';

const HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const SESSION_ID = 's1.lean-test';

/** Just what building a session's aggregated server reads from its endpoint: the user's client, for the instructions. */
function endpointWith(instructions: Record<string, string>): UserEndpoint {
  const client = {
    status: () => Object.keys(instructions).map((name) => ({ name, state: 'ready' })),
    instructions: (name: string) => instructions[name],
  };
  return { user: { id: 'u-1', name: 'ann' }, client: () => client } as unknown as UserEndpoint;
}

function requestOf(body: unknown, headers: Record<string, string> = HEADERS): Request {
  return new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(body) });
}

/** The SDK's own answer (a session's transport and aggregated server) and the handshake its server kept. */
async function sdkAnswer(body: unknown, endpoint: UserEndpoint): Promise<{ status: number; headers: Headers; text: string; handshake: unknown }> {
  const engine = await createSessionEngine(SESSION_ID, endpoint, newDownstreamSession(SESSION_ID, 'legacy'), 1_000_000, { onInitialized: () => {}, onClosed: () => {} });
  try {
    const response = await engine.transport.handleRequest(requestOf(body), { parsedBody: body });
    return { status: response.status, headers: response.headers, text: await response.text(), handshake: handshakeOf(engine) };
  } finally {
    engine.server.onclose = undefined;
    await engine.server.close();
  }
}

const initialize = (params: Record<string, unknown>, id: string | number = 0): Record<string, unknown> => ({ jsonrpc: '2.0', id, method: 'initialize', params });

describe('leanInitializeOf / leanInitializeAnswer', () => {
  const accepted = [
    initialize({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lean', version: '1' } }),
    initialize({ protocolVersion: '2025-11-25', capabilities: { roots: { listChanged: true }, elicitation: {}, sampling: {}, experimental: { x: {} } }, clientInfo: { name: 'c', version: '2', title: 'C' } }, 'req-7'),
    initialize({ protocolVersion: '2025-03-26', capabilities: { roots: {} }, clientInfo: { name: 'c', version: '3' }, _meta: { trace: 1 } }, 42),
    initialize({ protocolVersion: '2024-11-05', capabilities: { unknownCapability: { a: 1 } }, clientInfo: { name: 'c', version: '4', extra: true } }),
  ];

  test.each(accepted)('answers %j exactly as the SDK, and keeps the handshake its server keeps', async (body) => {
    const cases: Array<Record<string, string>> = [{}, { fs: 'Read files.', git: '  Commit often.  ' }];
    for (const instructions of cases) {
      const endpoint = endpointWith(instructions);
      const sdk = await sdkAnswer(body, endpoint);
      const lean = leanInitializeOf(requestOf(body), body);
      expect(lean).toBeDefined();
      if (lean === undefined) return;
      expect(lean.handshake).toEqual(sdk.handshake);
      const answer = leanInitializeAnswer(SESSION_ID, lean, instructionsOf(endpoint.client()));
      expect(answer.status).toBe(sdk.status);
      expect(await answer.text()).toBe(sdk.text);
      expect([...answer.headers.entries()].sort()).toEqual([...sdk.headers.entries()].sort());
    }
  });

  test('leaves to the SDK what it would refuse or answer otherwise', () => {
    const good = accepted[0] as Record<string, unknown>;
    const params = good.params as Record<string, unknown>;
    const refused: Array<[unknown, Record<string, string>?]> = [
      [[good]],
      [{ ...good, id: null }],
      [{ ...good, id: 1.5 }],
      [{ ...good, jsonrpc: '1.0' }],
      [{ ...good, method: 'ping' }],
      [initialize({ ...params, protocolVersion: '2026-07-28' })],
      [initialize({ ...params, protocolVersion: '1999-01-01' })],
      [initialize({ ...params, capabilities: { elicitation: 3 } })],
      [initialize({ ...params, clientInfo: { name: 'no version' } })],
      [initialize({ protocolVersion: '2025-06-18', clientInfo: { name: 'c', version: '1' } })],
      [good, { accept: 'application/json', 'content-type': 'application/json' }],
      [good, { accept: 'application/json, text/event-stream', 'content-type': 'text/plain' }],
    ];
    for (const [body, headers] of refused) expect(leanInitializeOf(requestOf(body, headers), body)).toBeUndefined();
  });
});

describe('dormantAnswerOf', () => {
  const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const at = (headers: Record<string, string>, body: unknown): Response | undefined => dormantAnswerOf(requestOf(body, { ...HEADERS, ...headers }), { value: body });

  test('answers notifications/initialized with the transport\'s bare 202', async () => {
    for (const body of [initialized, { ...initialized, params: {} }]) {
      const answer = at({ 'mcp-protocol-version': '2025-06-18' }, body);
      expect(answer?.status).toBe(202);
      expect(await answer?.text()).toBe('');
    }
    expect(at({}, initialized)?.status).toBe(202);
  });

  test('anything else needs the SDK', () => {
    expect(at({ 'mcp-protocol-version': '2099-01-01' }, initialized)).toBeUndefined();
    expect(at({ accept: 'application/json' }, initialized)).toBeUndefined();
    expect(at({}, [initialized])).toBeUndefined();
    expect(at({}, { ...initialized, id: 1 })).toBeUndefined();
    expect(at({}, { ...initialized, params: 'x' })).toBeUndefined();
    expect(at({}, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toBeUndefined();
    expect(dormantAnswerOf(requestOf(initialized), undefined)).toBeUndefined();
  });
});

describe('projectLegacyCallToolResult', () => {
  test('projects as a 2025-era session\'s own server', async () => {
    const body = accepted2025();
    const engine = await createSessionEngine(SESSION_ID, endpointWith({}), newDownstreamSession(SESSION_ID, 'legacy'), 1_000_000, { onInitialized: () => {}, onClosed: () => {} });
    try {
      await (await engine.transport.handleRequest(requestOf(body), { parsedBody: body })).text();
      expect(engine.server.getNegotiatedProtocolVersion()).toBe('2025-06-18');
      const cases: Array<[Record<string, unknown>, Record<string, unknown> | undefined]> = [
        [{ content: [], structuredContent: [1, 2] }, undefined],
        [{ content: [{ type: 'text', text: 'x' }], structuredContent: 'plain' }, undefined],
        [{ content: [], structuredContent: { a: 1 } }, { type: 'object' }],
        [{ content: [], structuredContent: 7 }, { type: 'number' }],
        [{ content: [] }, undefined],
      ];
      for (const [result, schema] of cases) {
        const value = result as Parameters<typeof projectLegacyCallToolResult>[0];
        expect(projectLegacyCallToolResult(value, schema)).toEqual(engine.server.projectCallToolResult(value, schema));
      }
      expect(projectLegacyCallToolResult({ content: [], structuredContent: [1] } as never, undefined).content).toEqual([{ type: 'text', text: '[1]' }]);
    } finally {
      engine.server.onclose = undefined;
      await engine.server.close();
    }
  });
});

function accepted2025(): Record<string, unknown> {
  return initialize({ protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lean', version: '1' } });
}
