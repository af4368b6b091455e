import type { Logger } from 'pino';
import { InternalError, McpProtocolError } from '../errors/protocol-errors.js';

/**
 * What a prompt or resource handler's exception becomes: protocol errors thrown on purpose keep
 * their meaning; anything else is logged in full and answered with a generic -32603.
 */
export function handlerFailure(error: unknown, source: string, log: Logger): McpProtocolError {
  if (error instanceof McpProtocolError) return error;
  log.error({ err: error, handler: source }, 'handler threw');
  return new InternalError(`Internal error in ${source.split('.').pop()}`);
}
