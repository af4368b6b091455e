/**
 * Stable codes of start-up errors: a server that would misbehave refuses to start instead,
 * with a message that says what to change. Codes are never reused.
 */
export const StartupErrorCode = {
  DUPLICATE_NAME: 'DECORUM_ERR_DUPLICATE_NAME',
  INVALID_NAME: 'DECORUM_ERR_INVALID_NAME',
  MISSING_METADATA: 'DECORUM_ERR_MISSING_METADATA',
  UNSUPPORTED_INPUT: 'DECORUM_ERR_UNSUPPORTED_INPUT',
  /** A decorator used wrongly (a non-method, a bad URI, a completer of nothing, …). */
  INVALID_DECLARATION: 'DECORUM_ERR_INVALID_DECLARATION',
  /** An option of createServer, a transport or a pipeline that is out of range or of the wrong kind. */
  INVALID_OPTION: 'DECORUM_ERR_INVALID_OPTION',
  NO_SERVERS: 'DECORUM_ERR_NO_SERVERS',
  INVALID_MCP_HEADER: 'DECORUM_ERR_INVALID_MCP_HEADER',
  UNSAFE_PATTERN: 'DECORUM_ERR_UNSAFE_PATTERN',
} as const;

export type StartupErrorCode = (typeof StartupErrorCode)[keyof typeof StartupErrorCode];

/** Thrown while building a server from decorated classes; never sent to a client. */
export class DecorumStartupError extends Error {
  constructor(
    readonly code: StartupErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'DecorumStartupError';
  }
}
