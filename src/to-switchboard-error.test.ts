import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { RpcError, SDK_ERROR_CODES, httpStatusOf, toSwitchboardError } from './to-switchboard-error.js';

describe('toSwitchboardError without importing the SDK', () => {
  it('names the SDK error codes exactly as the SDK does', () => {
    for (const [name, value] of Object.entries(SDK_ERROR_CODES)) {
      expect((SdkErrorCode as Record<string, string>)[name], name).toBe(value);
    }
  });

  it('recognises SDK errors by their brands', () => {
    expect(toSwitchboardError(new SdkError(SdkErrorCode.RequestTimeout, 'timed out'), { server: 's' }).code).toBe('REQUEST_TIMEOUT');
    expect(toSwitchboardError(new SdkError(SdkErrorCode.ConnectionClosed, 'closed')).code).toBe('SERVER_DISCONNECTED');
    const http = toSwitchboardError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'nope', { status: 404, statusText: 'Not Found' }));
    expect(http).toMatchObject({ code: 'SERVER_HTTP_ERROR', details: { status: 404 } });
  });

  it('maps an SDK ProtocolError and a lean-path RpcError the same way', () => {
    for (const error of [new ProtocolError(-32602, 'bad params'), new RpcError(-32602, 'bad params')]) {
      const mapped = toSwitchboardError(error, { server: 's', operation: 'tools/call x' });
      expect(mapped).toMatchObject({ code: 'SERVER_REQUEST_FAILED', message: 'server "s", tools/call x: bad params', details: { rpcCode: -32602 } });
      expect(mapped.cause).toBe(error);
      expect(mapped).toMatchObject({ server: 's', operation: 'tools/call x', reason: 'bad params' });
    }
    expect(toSwitchboardError(new RpcError(-32001, 'slow')).code).toBe('REQUEST_TIMEOUT');
    expect(toSwitchboardError(new RpcError(-32022, 'old', { supported: ['x'] }))).toMatchObject({ code: 'PROTOCOL_VERSION_UNSUPPORTED' });
  });
});

describe('httpStatusOf', () => {
  it('reads the status of an SDK HTTP error and of a transport error, and nothing else', () => {
    expect(httpStatusOf(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'nope', { status: 404, statusText: 'Not Found' }))).toBe(404);
    expect(httpStatusOf(Object.assign(new Error('gone'), { data: { status: 404 } }))).toBe(404);
    expect(httpStatusOf(Object.assign(new Error('refused'), { status: 405 }))).toBe(405);
    expect(httpStatusOf(new SdkError(SdkErrorCode.RequestTimeout, 'timed out'))).toBeUndefined();
    expect(httpStatusOf(Object.assign(new Error('odd'), { status: '404' }))).toBeUndefined();
    expect(httpStatusOf(null)).toBeUndefined();
    expect(httpStatusOf('HTTP 404')).toBeUndefined();
  });
});
