import type { Logger } from 'pino';
import { InternalError, InvalidParamsError, McpProtocolError } from '../errors/protocol-errors.js';
import { UserError } from '../errors/user-error.js';

/**
 * What a prompt or resource handler's exception becomes. Protocol errors thrown on purpose keep
 * their meaning. A {@link UserError} is the handler refusing this request for a reason the caller
 * can act on; the results of `prompts/get` and `resources/read` have no error form, and the only
 * non-internal code the spec gives these methods is -32602 (the request cannot be served as
 * asked: unknown prompt, missing argument, resource not found), so it answers -32602 with the
 * handler's message. Anything else is a bug of the server: logged in full, answered with a
 * generic -32603 that names only the handler.
 */
export function handlerFailure(error: unknown, source: string, log: Logger): McpProtocolError {
  if (error instanceof McpProtocolError) return error;
  if (error instanceof UserError) return new InvalidParamsError(error.message);
  log.error({ err: error, handler: source }, 'handler threw');
  return new InternalError(`Internal error in ${source.split('.').pop()}`);
}
