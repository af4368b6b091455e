import type { DecorumServer, InvalidRequestError, JsonRpcNotification, JsonRpcRequest } from '@decorum/core';
import { classifyInbound, errorResponse, type EngineAnswer, type EngineResponse, type LegacySession, type RequestChannel } from '@decorum/core/transport';

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
    const inbound = classifyInbound(this.server.eras, request, this.session !== undefined);
    if (inbound.era === 'modern') return this.server.engine.answerRequest(request, channel);
    if (inbound.era === 'refused') return errorResponse(request.id, inbound.error);
    // The process's one session opens with its first legacy message (in eras 'legacy', whatever it is).
    this.session ??= this.server.openLegacySession((message) => this.write(message));
    return this.session.answerRequest(request, channel);
  }

  /** A client notification: the legacy session's once there is one, else an extension's (cancellation is the stdio server's own). */
  notification(notification: JsonRpcNotification): void {
    if (this.session) this.session.handleNotification(notification);
    else this.server.engine.notification(notification, true);
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
