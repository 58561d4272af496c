import { describe, expect, test } from 'vitest';
import { redactUrlsInText } from './redact-urls.js';

describe('redactUrlsInText', () => {
  test('takes out userinfo and credential-looking query values, wherever the URL sits in the text', () => {
    expect(redactUrlsInText('fetch http://user:p%40ss@127.0.0.1:9/mcp?api_key=K1&x=1&Token=T2#f failed')).toBe('fetch http://••••@127.0.0.1:9/mcp?api_key=••••&x=1&Token=••••#f failed');
    expect(redactUrlsInText('"https://me@host/a@b?q=1"')).toBe('"https://••••@host/a@b?q=1"');
    expect(redactUrlsInText('https://host/p?access%5Ftoken=abc')).toBe('https://host/p?access%5Ftoken=••••');
  });

  test('leaves text without credentials alone', () => {
    for (const text of ['no url here', 'https://example.com/mcp?page=2', 'file:///etc/hosts']) expect(redactUrlsInText(text)).toBe(text);
  });
});
