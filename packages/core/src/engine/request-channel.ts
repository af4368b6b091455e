import type { Logger } from 'pino';
import type { AuthInfo } from '../context/request-context.js';
import type { JsonRpcNotification, JsonRpcRequest } from '../protocol/types.js';
import type { Cancellation } from './cancellation.js';
import type { RequestMeta } from '../era/request-meta.js';
import type { PipelineCall } from '../pipeline/call.js';

/**
 * How a transport hands one request to the engine: where request-scoped notifications go, the
 * signal that says the client gave up, and the transport's own checks, which the engine calls
 * where the spec puts them. This is the whole transport/data-layer seam.
 */
export interface RequestChannel {
  /**
   * The request's cancellation, which the transport cancels when the client gives up or its
   * connection is gone. Preferred over `signal`: no `AbortSignal` is made unless a handler asks.
   */
  readonly cancellation?: Cancellation;
  /** Aborted by the transport when the request is cancelled (used when there is no `cancellation`). */
  readonly signal?: AbortSignal;
  /** Delivers a notification tied to this request (progress, log), before its response. */
  notify(notification: JsonRpcNotification): void;
  /** The verified caller, when the transport authenticated one. */
  readonly auth?: AuthInfo;
  /** A transport-bound logger (e.g. Fastify's request logger) to correlate entries. */
  readonly logger?: Logger;
  /**
   * Who is calling, as the transport sees it (HTTP: the remote address); absent on stdio, whose
   * one client is the process at the other end. Rate limits key callers without a token by it.
   */
  readonly peer?: string;
  /**
   * The legacy era's session id, where the transport has one (HTTP: `Mcp-Session-Id`); the
   * pipeline and its spans (`mcp.session.id`) read it. The modern era has no sessions.
   */
  readonly sessionId?: string;
  /**
   * The transport's checks of what the body says, once `_meta` is read and before its version is
   * checked (HTTP: `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name` must agree with it). Refuses
   * by throwing a typed error. `nameParam` is the param `Mcp-Name` must carry for a method that
   * names one itself (an extension's; core methods' are the transport's own table).
   */
  checkMeta?(request: JsonRpcRequest, meta: RequestMeta, nameParam?: string): void;
  /**
   * The transport's checks of the request's target, once the method resolved it and before the
   * pipeline runs (HTTP: the token's scopes, `Mcp-Param-*`). Refuses by throwing a typed error.
   */
  checkTarget?(call: PipelineCall): void;
}
