import { describe, expect, it } from 'vitest';
import { ErrorCode, SwitchboardError } from '../../errors.js';
import { refusalOf } from './refusal-of.js';

const addOnSink = { name: 'add', server: 'sink', originalName: 'add' };

describe('refusalOf', () => {
  it('names the routed tool, or the tool a server that is not up owned, or the server alone', () => {
    expect(refusalOf(new SwitchboardError(ErrorCode.InvalidArgument, 'bad', { server: 'sink' }), addOnSink)).toEqual({ code: 'INVALID_ARGUMENT', server: 'sink', tool: 'add' });
    expect(refusalOf(new SwitchboardError(ErrorCode.ServerDisconnected, 'down', { server: 'sink' }), undefined, addOnSink)).toEqual({ code: 'SERVER_DISCONNECTED', server: 'sink', tool: 'add' });
    expect(refusalOf(new SwitchboardError(ErrorCode.ServerDisconnected, 'down', { server: 'sink' }))).toEqual({ code: 'SERVER_DISCONNECTED', server: 'sink' });
    expect(refusalOf(new SwitchboardError(ErrorCode.ToolNotFound, 'no such tool'))).toEqual({ code: 'TOOL_NOT_FOUND' });
  });

  it('does not file a refusal about one server under another server\'s tool of that name', () => {
    expect(refusalOf(new SwitchboardError(ErrorCode.ToolNotFound, 'not on fs2', { server: 'fs2' }), undefined, addOnSink)).toEqual({ code: 'TOOL_NOT_FOUND', server: 'fs2' });
    expect(refusalOf(new SwitchboardError(ErrorCode.ToolNotFound, 'no such tool'), undefined, addOnSink)).toEqual({ code: 'TOOL_NOT_FOUND' });
  });
});
