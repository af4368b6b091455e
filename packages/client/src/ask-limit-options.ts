/**
 * Bounds on what a server may ask of the client (elicitation, sampling, roots): each ask may run
 * a paid model call or interrupt the user, so an untrusted server must not be able to ask without
 * end. Limits are per connection (one server) and, for modern `input_required` rounds, per call.
 */
export interface AskLimits {
  /**
   * Asks of one server in progress at once (default 4). A legacy server's request beyond it is
   * refused at once (JSON-RPC error -31429); a modern round's asks wait for a free slot.
   */
  maxConcurrentAsks?: number;
  /** Asks one server may make per minute, in bursts of up to this many (default 60); beyond it they are refused. */
  maxAsksPerMinute?: number;
  /** Asks one modern request may make over all its `input_required` rounds (default 32). */
  maxAsksPerCall?: number;
  /** `inputRequests` one `input_required` round may carry (default 16). */
  maxInputRequestsPerRound?: number;
  /** The most `input_required` rounds one request may take (default 8). */
  maxInputRounds?: number;
}

/** The name of one ask limit, as its option is spelt. */
export type AskLimitName = keyof AskLimits;
