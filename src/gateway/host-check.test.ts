import { describe, expect, test } from 'vitest';
import { createHostCheck, hostnameOf } from './host-check.js';

const request = (headers: Record<string, string>): Request => new Request('http://127.0.0.1:7410/mcp', { headers });

describe('the Host check (DNS rebinding)', () => {
  const check = createHostCheck();

  test('loopback names pass, with or without a port', () => {
    for (const host of ['localhost', 'localhost:7410', '127.0.0.1:7410', '[::1]:7410']) expect(check(request({ host })), host).toBeUndefined();
  });

  test('another name is refused, and the refusal says how to allow it', () => {
    const refusal = check(request({ host: 'evil.example:7410' }));
    expect(refusal?.code).toBe('FORBIDDEN');
    expect(refusal?.message).toContain('Invalid Host: evil.example');
    expect(refusal?.hint).toContain('--allowed-host');
    expect(check(request({ host: '127.0.0.1.evil.example' }))?.code).toBe('FORBIDDEN');
  });

  test('--allowed-host adds a name (for Host and Origin); values may be URLs', () => {
    const allowing = createHostCheck({ allowedHosts: ['gateway.internal', 'https://other.internal:8443'] });
    expect(allowing(request({ host: 'gateway.internal:7410' }))).toBeUndefined();
    expect(allowing(request({ host: 'other.internal' }))).toBeUndefined();
    expect(allowing(request({ host: 'gateway.internal', origin: 'https://gateway.internal' }))).toBeUndefined();
  });
});

describe('the Origin check', () => {
  const check = createHostCheck({ allowedOrigins: ['https://dashboard.example'] });

  test('requests without Origin (every non-browser client) pass', () => {
    expect(check(request({ host: '127.0.0.1' }))).toBeUndefined();
  });

  test('loopback and allowed origins pass; another site is refused', () => {
    expect(check(request({ host: '127.0.0.1:7410', origin: 'http://127.0.0.1:7410' }))).toBeUndefined();
    expect(check(request({ host: 'localhost:7410', origin: 'http://127.0.0.1:7410' }))).toBeUndefined();
    expect(check(request({ host: '127.0.0.1', origin: 'https://dashboard.example' }))).toBeUndefined();
    const refusal = check(request({ host: '127.0.0.1', origin: 'https://evil.example' }));
    expect(refusal?.message).toContain('Invalid Origin: evil.example');
    expect(check(request({ host: '127.0.0.1', origin: 'null' }))?.code).toBe('FORBIDDEN');
  });
});

describe("the Origin check on the gateway's own names: the port counts", () => {
  const check = createHostCheck({ allowedHosts: ['gateway.internal'], allowedOrigins: ['http://localhost:6274', 'tools.example'] });

  test('a page of another program on the same machine (another port) is refused, and told how to allow it', () => {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://localhost']) {
      const refusal = check(request({ host: 'localhost:7410', origin }));
      expect(refusal?.code, origin).toBe('FORBIDDEN');
      expect(refusal?.message, origin).toContain('the request was sent to localhost:7410');
      expect(refusal?.hint).toContain('--allowed-origin');
    }
    expect(check(request({ host: 'gateway.internal:7410', origin: 'http://gateway.internal:8080' }))?.code).toBe('FORBIDDEN');
  });

  test("the port the request was sent to passes; without one in Host, only the scheme's default port does", () => {
    expect(check(request({ host: 'localhost:7410', origin: 'http://localhost:7410' }))).toBeUndefined();
    expect(check(request({ host: '[::1]:7410', origin: 'http://[::1]:7410' }))).toBeUndefined();
    // Behind a TLS proxy that keeps Host: the page is https on 443.
    expect(check(request({ host: 'gateway.internal', origin: 'https://gateway.internal' }))).toBeUndefined();
    expect(check(request({ host: 'gateway.internal:443', origin: 'https://gateway.internal' }))).toBeUndefined();
    expect(check(request({ host: 'gateway.internal', origin: 'https://gateway.internal:8443' }))?.code).toBe('FORBIDDEN');
  });

  test('--allowed-origin: an origin allows itself exactly, a bare name any port', () => {
    expect(check(request({ host: 'localhost:7410', origin: 'http://localhost:6274' }))).toBeUndefined();
    expect(check(request({ host: 'localhost:7410', origin: 'http://localhost:6275' }))?.code).toBe('FORBIDDEN');
    expect(check(request({ host: 'localhost:7410', origin: 'https://tools.example:9000' }))).toBeUndefined();
    expect(check(request({ host: 'localhost:7410', origin: 'http://tools.example' }))).toBeUndefined();
  });
});

test('hostnameOf takes the host name out of the values people type', () => {
  expect(hostnameOf('Gateway.Example:8443')).toBe('gateway.example');
  expect(hostnameOf('https://gateway.example/x')).toBe('gateway.example');
  expect(hostnameOf('fe80::1')).toBe('[fe80::1]');
  expect(hostnameOf('[::1]')).toBe('[::1]');
});
