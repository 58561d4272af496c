import { expect, test } from 'vitest';
import { parseGatewayLimits } from './parse-gateway-limits.js';

test('NAME=VALUE pairs become startGateway options', () => {
  expect(parseGatewayLimits(['maxSessionsPerUser=20', 'headersTimeoutMs=5000'])).toEqual({ maxSessionsPerUser: 20, headersTimeoutMs: 5_000 });
  expect(parseGatewayLimits(['maxListenStreamsPerUser=5', 'maxListenStreams=50'])).toEqual({ maxListenStreamsPerUser: 5, maxListenStreams: 50 });
  expect(parseGatewayLimits([])).toEqual({});
});

test('an unknown name or a bad value says which, and what is allowed', () => {
  expect(() => parseGatewayLimits(['maxSession=3'])).toThrow('--limit maxSession=3: unknown limit "maxSession"; one of maxSessionsPerUser, maxSessions,');
  expect(() => parseGatewayLimits(['maxSessions'])).toThrow('--limit maxSessions: the value must be a whole number of at least 1, as in --limit maxSessions=100');
  expect(() => parseGatewayLimits(['maxSessions=0'])).toThrow('at least 1');
  expect(() => parseGatewayLimits(['maxSessions=1e3'])).toThrow('whole number');
});
