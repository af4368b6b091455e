import type { Logger } from 'pino';
import type { ClientCapabilities, Implementation, RequestId } from '../protocol/types.js';

/** Who is calling, as this request says (unverified: for display and capability checks). */
export interface ClientView {
  /** `clientInfo` from `_meta`, when sent. */
  readonly info: Implementation | undefined;
  /** `clientCapabilities` from `_meta` (this request's, never an earlier one's). */
  readonly capabilities: ClientCapabilities;
  readonly protocolVersion: string;
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
 * outlives the request.
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
