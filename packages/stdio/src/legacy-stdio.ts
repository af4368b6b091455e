import { InvalidParamsError, InvalidRequestError, META, type DecorumServer, type JsonRpcNotification, type JsonRpcRequest } from '@decorum/core';
import {
  errorResponse,
  isLegacyOpening,
  isModernShaped,
  type EngineAnswer,
  type EngineResponse,
  type LegacySession,
  type RequestChannel,
} from '@decorum/core/transport';

/** A dual-era request that is neither a 2026-07-28 request nor part of a legacy session. */
function neitherEra(method: string): InvalidParamsError {
  return new InvalidParamsError(
    `Invalid params: ${method} has no params._meta["${META.protocolVersion}"]. A 2026-07-28 request carries _meta["${META.protocolVersion}"] and _meta["${META.clientCapabilities}"]; a 2025-11-25 (or earlier) client must open the session with initialize first`,
  );
}

/** What the stdio server writes: responses, notifications, and (legacy) server→client requests. */
export type StdioWrite = (message: EngineResponse | JsonRpcNotification | JsonRpcRequest) => void;

/**
 * The era of one stdio process. A request with modern `_meta` is served statelessly (2026-07-28);
 * an `initialize` opens the process's one legacy session, which then serves every other request
 * for the process's lifetime, with its server→client requests and notifications on stdout.
 * With `eras: 'legacy'` the process is a legacy session from its first message.
 */
export class StdioEras {
  private session: LegacySession | undefined;

  constructor(
    private readonly server: DecorumServer,
    private readonly write: StdioWrite,
  ) {}

  /**
   * Answers one request in the era it belongs to: at once when it was answered synchronously
   * (a modern request to a plain tool, any refusal), else a promise that never rejects.
   */
  handle(request: JsonRpcRequest, channel: RequestChannel): EngineAnswer {
    const { eras, engine } = this.server;
    if (eras !== 'legacy' && isModernShaped(request)) return engine.answerRequest(request, channel);
    if (!this.session && (eras === 'legacy' || (eras === 'dual' && isLegacyOpening(request)))) {
      this.session = this.server.openLegacySession((message) => this.write(message));
    }
    if (this.session) return this.session.answerRequest(request, channel);
    if (eras === 'legacy') return errorResponse(request.id, new InvalidRequestError('Invalid Request: send initialize first'));
    if (eras === 'modern') return engine.answerRequest(request, channel);
    // Dual, no session yet, and no modern _meta: either a 2026-07-28 request that lacks it or a
    // legacy client that skipped initialize. The error (still -32602) says what each must do.
    return errorResponse(request.id, neitherEra(request.method));
  }

  /** A client notification for the legacy session (cancellation is the stdio server's own). */
  notification(notification: JsonRpcNotification): void {
    this.session?.handleNotification(notification);
  }

  /**
   * A response on stdin: the answer to one of the legacy session's requests. Returns the refusal
   * of a malformed one (-32600, which the caller writes); the process keeps serving either way.
   */
  response(message: { id?: unknown; result?: unknown; error?: unknown }): InvalidRequestError | undefined {
    return this.session?.handleResponse(message);
  }

  /** True once the process is a legacy session. */
  get legacy(): boolean {
    return this.session !== undefined;
  }

  close(): void {
    this.session?.close();
  }
}
