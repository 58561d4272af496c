import { describe, expect, test } from 'vitest';
import { isSwitchboardError } from '../errors.js';
import { parseAuthorizationCallback } from './authorization-callback.js';

function failure(run: () => unknown): { message: string; reason: unknown } {
  try {
    run();
  } catch (error) {
    if (isSwitchboardError(error)) return { message: error.message, reason: error.details.reason };
    throw error;
  }
  throw new Error('did not throw');
}

describe('parseAuthorizationCallback', () => {
  test('takes code and iss from a redirect URL, its query, or a URL object, checking state', () => {
    const url = 'http://127.0.0.1:5000/callback?code=abc&state=s1&iss=https%3A%2F%2Fas.example.com';
    expect(parseAuthorizationCallback(url, 's1', 'x')).toEqual({ code: 'abc', iss: 'https://as.example.com' });
    expect(parseAuthorizationCallback(new URL(url), 's1', 'x')).toEqual({ code: 'abc', iss: 'https://as.example.com' });
    expect(parseAuthorizationCallback(new URLSearchParams('code=abc&state=s1'), 's1', 'x')).toEqual({ code: 'abc' });
  });

  test('a bare code is accepted as is (the program did the state check)', () => {
    expect(parseAuthorizationCallback('  abc-123  ', 's1', 'x')).toEqual({ code: 'abc-123' });
  });

  test('a wrong or missing state is refused, and the code is not echoed', () => {
    const wrong = failure(() => parseAuthorizationCallback('http://h/cb?code=secret-code&state=evil', 's1', 'x'));
    expect(wrong.reason).toBe('state-mismatch');
    expect(wrong.message).not.toContain('secret-code');
    expect(failure(() => parseAuthorizationCallback('http://h/cb?code=c', 's1', 'x')).reason).toBe('state-mismatch');
  });

  test('an error redirect ends the flow with the OAuth error code', () => {
    const refused = failure(() => parseAuthorizationCallback('http://h/cb?error=access_denied&error_description=no&state=s1', 's1', 'x'));
    expect(refused.reason).toBe('authorization-refused');
    expect(refused.message).toContain('access_denied');
  });

  test('no code at all is an error', () => {
    expect(failure(() => parseAuthorizationCallback('', undefined, 'x')).message).toContain('no code');
    expect(failure(() => parseAuthorizationCallback('http://h/cb?state=s1', 's1', 'x')).message).toContain('no code');
  });
});
