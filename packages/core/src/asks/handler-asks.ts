/**
 * The seam between a handler's asks (`ctx.elicit`, `ctx.sample`, `ctx.roots`, `ctx.once`) and how
 * they are answered. One seam is chosen per request: an MRTR round on the modern era
 * (`asks/mrtr/mrtr-seam.ts`), a server→client request on a legacy session (`asks/session/session-asks.ts`).
 * The handlers, and the methods that run them, are the same for both.
 */
import type { Logger } from 'pino';
import type { AuthInfo } from '../context/request-context.js';
import type { ClientCapabilities, JsonRpcRequest } from '../protocol/types.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, InputOptions, InputRequiredResult, Root } from './ask-types.js';
import type { MrtrConfig } from './mrtr/input-round.js';

/** What an ask seam reads of the request whose handler asks. */
export interface AskingCall {
  readonly request: JsonRpcRequest;
  /** What the client declared it can take, for this request (modern) or its session (legacy). */
  readonly clientCapabilities: ClientCapabilities;
  /** Aborted when the request is cancelled (a live ask then ends). */
  readonly signal: AbortSignal;
  readonly log: Logger;
  readonly auth: AuthInfo | undefined;
}

/** What answers one request's asks. */
export interface HandlerAsks {
  /** Answers `ctx.elicit`: the user's answer (`undefined` for an optional ask the client cannot take). */
  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult | undefined>;
  /** Answers `ctx.sample`: the client model's message (`undefined` for an optional ask the client cannot take). */
  sample(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult | undefined>;
  /** Answers `ctx.roots`: the client's roots (`undefined` for an optional ask the client cannot take). */
  roots(options?: InputOptions): Promise<Root[] | undefined>;
  /** Answers `ctx.once`: `fn`'s result, run once for the request (journaled across MRTR rounds). */
  once<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
}

/** What the asks of one handler run are about: the target they are bound to. */
export interface AskTarget {
  /** MRTR settings of the server (a process-wide default when absent). */
  readonly mrtr: MrtrConfig | undefined;
  /** The tool or prompt name, or the resource URI. */
  readonly name: string;
  readonly args: unknown;
}

/** What running a handler gave: its value, or (MRTR only) the round's `input_required` answer. */
export type HandlerOutcome<T> =
  | { kind: 'value'; value: T; /** True when the request was an MRTR retry (its result must not be cached). */ retry: boolean }
  | { kind: 'input_required'; result: InputRequiredResult };

/** One way of answering asks. */
export interface AskSeam {
  /**
   * Runs `invoke` with the asks that answer `call`'s handler this way (`invoke` makes the handler's
   * `ctx` with them). Errors other than an ended round propagate (thrown, or as the rejection of the
   * promise returned). A seam may answer a synchronous handler synchronously: callers take both.
   */
  run<T>(call: AskingCall, target: AskTarget, invoke: (asks: HandlerAsks) => T | Promise<T>): Promise<HandlerOutcome<T>> | HandlerOutcome<T>;
}
