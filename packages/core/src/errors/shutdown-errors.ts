import { InternalError } from './protocol-errors.js';

/**
 * What a transport answers when it cannot finish a request — a client is never left waiting for an
 * answer that will not come. All are -32603, with a message that says which:
 * - `notStarted`: the server is shutting down (SIGTERM, `close()`) and did not start the request;
 * - `cutOff`: the request still ran when the shutdown grace period ended;
 * - `crashed`: the process is exiting after an uncaught exception.
 */
export const shutdownErrors = {
  /** The server is shutting down and did not start the request. */
  notStarted: (): InternalError => new InternalError('Internal error: the server is shutting down and takes no new requests'),
  /** The request still ran when the shutdown grace period ended. */
  cutOff: (): InternalError => new InternalError('Internal error: server shutting down: the request did not finish within the shutdown grace period'),
  /** The process is exiting after an uncaught exception. */
  crashed: (): InternalError => new InternalError('Internal error: the server failed (uncaught exception) and is exiting'),
} as const;
