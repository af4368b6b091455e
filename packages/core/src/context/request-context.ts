import type { Logger } from 'pino';
import type { ClientCapabilities, Implementation, JsonObject, RequestId } from '../protocol/types.js';
import type { CreateMessageParams, CreateMessageResult, ElicitParams, ElicitResult, ElicitValue, InputOptions, Root } from '../asks/ask-types.js';

/** Who is calling, as this request says (unverified: for display and capability checks). */
export interface ClientView {
  /** `clientInfo` from `_meta`, when sent. */
  readonly info: Implementation | undefined;
  /** `clientCapabilities` from `_meta` (this request's, never an earlier one's). */
  readonly capabilities: ClientCapabilities;
  readonly protocolVersion: string;
  /**
   * The extensions the client declared, by id (`capabilities.extensions`; `{}` when none): a
   * 2026-07-28 request's own, a legacy session's from `initialize`.
   */
  readonly extensions: Readonly<Record<string, JsonObject>>;
}

/** The verified identity of an authenticated HTTP caller. */
export interface AuthInfo {
  /** The principal (e.g. the token's `sub`). */
  readonly principal: string | undefined;
  readonly scopes: readonly string[];
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * The request context: the last parameter of every handler. One per request; nothing in it
 * outlives the request — except on a call an extension derived (a task), whose `signal`, asks and
 * progress are the extension's and last as long as it runs.
 */
export interface RequestContext {
  /** The JSON-RPC id of this request. */
  readonly requestId: RequestId;
  /** The MCP method being served (`tools/call`, `resources/read`, `prompts/get`). */
  readonly method: string;
  /** Aborted when the request is cancelled (stdio `notifications/cancelled`, HTTP stream closed). */
  readonly signal: AbortSignal;
  readonly client: ClientView;
  /**
   * A pino logger bound to this request. Entries go to the server log; when the request's `_meta`
   * asked for a log level they are also sent to the client as `notifications/message`.
   */
  readonly log: Logger;
  /** The verified token's claims on HTTP with auth enabled, else `undefined`. */
  readonly auth: AuthInfo | undefined;
  /**
   * Reports progress as `notifications/progress` when the request carried a `progressToken`
   * (a no-op otherwise). `progress` must increase from call to call; smaller values are dropped.
   */
  progress(progress: number, total?: number, message?: string): void;
  /**
   * Asks the user (MRTR elicitation, form or URL mode). Resolves at once when this request (or an
   * earlier round, through the sealed `requestState`) carries the answer; otherwise the round
   * ends with `input_required` and the handler runs again from the top on the client's retry.
   * Accepted form content is checked against `requestedSchema` (invalid content is asked again).
   *
   * Handlers must be deterministic up to each ask and must not catch what an unanswered ask
   * throws; work before an ask repeats every round unless wrapped in {@link once}.
   * Without the client capability (`elicitation`, or `elicitation.url` for URL mode): -32021,
   * or `undefined` with `{ optional: true }`.
   */
  elicit<Content = Record<string, ElicitValue>>(params: ElicitParams, options?: InputOptions & { optional?: false }): Promise<ElicitResult<Content>>;
  /** As above; with `{ optional: true }` it resolves to `undefined` when the client lacks the capability. */
  elicit<Content = Record<string, ElicitValue>>(params: ElicitParams, options: InputOptions & { optional: true }): Promise<ElicitResult<Content> | undefined>;
  /** Asks the client's LLM (MRTR `sampling/createMessage`; deprecated in 2026-07-28). Same rules as {@link elicit}. */
  sample(params: CreateMessageParams, options?: InputOptions & { optional?: false }): Promise<CreateMessageResult>;
  /** As above; with `{ optional: true }` it resolves to `undefined` when the client lacks the capability. */
  sample(params: CreateMessageParams, options: InputOptions & { optional: true }): Promise<CreateMessageResult | undefined>;
  /** Asks the client for its roots (MRTR `roots/list`; deprecated in 2026-07-28). Same rules as {@link elicit}. */
  roots(options?: InputOptions & { optional?: false }): Promise<Root[]>;
  /** As above; with `{ optional: true }` it resolves to `undefined` when the client lacks the capability. */
  roots(options: InputOptions & { optional: true }): Promise<Root[] | undefined>;
  /**
   * Runs `fn` once across all MRTR rounds of this request: its JSON-serializable result is
   * journaled in the sealed `requestState` and returned (as its JSON) on later rounds without
   * running `fn` again. The journal is bounded (`mrtr.journalLimitBytes`, default 64 KiB).
   */
  once<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
}

/** The context of a `tools/call` handler. */
export type ToolContext = RequestContext;

/** The context of a `prompts/get` handler. */
export type PromptContext = RequestContext;

/** The context of a `resources/read` handler. */
export interface ResourceContext extends RequestContext {
  /** The URI being read. */
  readonly uri: string;
}
