import type { Logger } from 'pino';
import type { AuthInfo } from '../context/request-context.js';
import type { JsonRpcNotification } from '../protocol/types.js';
import type { Cancellation } from './cancellation.js';
import type { AskSeam } from '../asks/handler-asks.js';

/**
 * How a transport hands one request to the engine: where request-scoped notifications go,
 * and the signal that says the client gave up. This is the whole transport/data-layer seam.
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
  /** How handlers' asks are answered (a legacy session's requests to its client); an MRTR round when absent. */
  readonly asks?: AskSeam;
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
}
