import { describe, expect, it } from 'vitest';
import { ApiError, parseErrorBody } from './api-error.js';

describe('parseErrorBody', () => {
  it('keeps the gateway’s code, message, hint and issues', () => {
    const body = parseErrorBody(400, {
      error: { code: 'CONFIG_INVALID', message: 'server "x" has 1 problem', hint: 'see the docs', issues: [{ path: 'servers.x.url', message: 'Invalid URL' }, { bad: true }] },
    });
    expect(body).toEqual({ code: 'CONFIG_INVALID', message: 'server "x" has 1 problem', hint: 'see the docs', issues: [{ path: 'servers.x.url', message: 'Invalid URL' }] });
    const error = new ApiError(400, body);
    expect([error.status, error.code, error.issues.length]).toEqual([400, 'CONFIG_INVALID', 1]);
  });

  it('says something useful for an answer that is not the gateway’s', () => {
    expect(parseErrorBody(502, '<html>Bad Gateway</html>')).toEqual({ code: 'HTTP_502', message: 'the gateway answered 502' });
    expect(parseErrorBody(500, { error: 'boom' })).toEqual({ code: 'HTTP_500', message: 'the gateway answered 500' });
  });
});
