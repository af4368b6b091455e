import { describe, expect, it } from '@jest/globals';
import {
  ForbiddenError,
  HeaderMismatchError,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  McpProtocolError,
  MethodNotFoundError,
  MissingRequiredClientCapabilityError,
  ParseError,
  RateLimitedError,
  RefusedMessageError,
  UnsupportedProtocolVersionError,
} from '@decorum/core';
import { ClientRequestFailedError, ClientRequestTimeoutError, ResourceNotFoundError } from '../src/errors/protocol-errors.js';
import { toJsonRpcError } from '../src/errors/to-json-rpc.js';

/** The protocol error table: each class keeps its name, code, data and `instanceof`, and has a default message. */
describe('protocol errors', () => {
  const rows = [
    [ParseError, -32700, 'Parse error'],
    [InvalidRequestError, -32600, 'Invalid Request'],
    [MethodNotFoundError, -32601, 'Method not found'],
    [InvalidParamsError, -32602, 'Invalid params'],
    [InternalError, -32603, 'Internal error'],
    [HeaderMismatchError, -32020, 'Header mismatch'],
    [ClientRequestTimeoutError, -32001, 'Request timed out'],
    [ClientRequestFailedError, -32603, 'The client answered with an error'],
    [ForbiddenError, -31403, 'Forbidden'],
  ] as const;

  it.each(rows)('%p has its code, its name and a default message', (Class, code, message) => {
    const error = new Class('what went wrong');
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(McpProtocolError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(code);
    expect(Class.code).toBe(code);
    expect(error.name).toBe(Class.name);
    expect(error.message).toBe('what went wrong');
    expect(error.data).toBeUndefined();
    expect(Object.keys(error)).toEqual(['data', 'name', 'code']);
    expect(new Class().message).toBe(message);
  });

  it('keeps data given to the constructor', () => {
    expect(new InvalidParamsError('bad', { field: 'x' }).data).toEqual({ field: 'x' });
    expect(new ForbiddenError('no', { requiredScopes: ['notes:write'] }).data).toEqual({ requiredScopes: ['notes:write'] });
  });

  it('makes data from the constructor arguments where the error defines its shape', () => {
    const missing = new MissingRequiredClientCapabilityError('needs elicitation', { elicitation: {} });
    expect(missing.code).toBe(-32021);
    expect(missing.data).toEqual({ requiredCapabilities: { elicitation: {} } });

    const supported = ['2026-07-28'];
    const unsupported = new UnsupportedProtocolVersionError('unsupported', supported, '1999-01-01');
    expect(unsupported.code).toBe(-32022);
    expect(unsupported.data).toEqual({ supported: ['2026-07-28'], requested: '1999-01-01' });
    expect(unsupported.data.supported).not.toBe(supported);

    const limited = new RateLimitedError('slow down', { retryAfterMs: 500, limit: 10, windowMs: 1000 });
    expect(limited.code).toBe(-31429);
    expect(limited.data.retryAfterMs).toBe(500);
  });

  it('keeps the refinements: a refused message is a parse error, a missing resource is an invalid-params error', () => {
    const refused = new RefusedMessageError('refused', 7);
    expect(refused).toBeInstanceOf(ParseError);
    expect([refused.code, refused.name, refused.requestId]).toEqual([-32700, 'RefusedMessageError', 7]);

    const missing = new ResourceNotFoundError('Resource not found: notes://x', { uri: 'notes://x' });
    expect(missing).toBeInstanceOf(InvalidParamsError);
    expect([missing.code, missing.name, missing.data]).toEqual([-32602, 'ResourceNotFoundError', { uri: 'notes://x' }]);
  });

  it('a user-made subclass is thrown and mapped like any other', () => {
    class QuotaError extends InvalidParamsError {}
    const error = new QuotaError('quota used up', { quota: 3 });
    expect(error.name).toBe('QuotaError');
    expect(toJsonRpcError(error)).toEqual({ code: -32602, message: 'quota used up', data: { quota: 3 } });
    expect(toJsonRpcError(new Error('secret'))).toEqual({ code: -32603, message: 'Internal error' });
  });
});
