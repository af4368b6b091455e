/**
 * Stable codes of run-time misuse: a call the code made in the wrong place or the wrong way
 * (not a client's bad input, which is a protocol error, nor a bad declaration, which fails at
 * start-up). Thrown into the caller's own code; where that is a handler, the client sees an
 * internal error and the log has the message. Codes are never reused.
 */
export const UsageErrorCode = {
  /** `ctx.elicit`/`ctx.sample`/`ctx.roots` outside a tools/call, prompts/get or resources/read handler. */
  OUTSIDE_HANDLER: 'DECORUM_ERR_OUTSIDE_HANDLER',
  /** One `ctx.once`/ask key used twice in one handler run. */
  KEY_REUSED: 'DECORUM_ERR_KEY_REUSED',
  /** `ctx.once` would grow the MRTR journal past `mrtr.journalLimitBytes`. */
  JOURNAL_OVERFLOW: 'DECORUM_ERR_JOURNAL_OVERFLOW',
  /** `serverOf(instance)` on an instance no server serves. */
  NOT_SERVED: 'DECORUM_ERR_NOT_SERVED',
  /** An ask the handler cannot make as written (`ctx.elicit` in URL mode without an absolute URL). */
  INVALID_ASK: 'DECORUM_ERR_INVALID_ASK',
} as const;

export type UsageErrorCode = (typeof UsageErrorCode)[keyof typeof UsageErrorCode];

/** Thrown when Decorum's API is used at the wrong time or place; the message says what to do instead. */
export class DecorumUsageError extends Error {
  constructor(
    readonly code: UsageErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'DecorumUsageError';
  }
}
