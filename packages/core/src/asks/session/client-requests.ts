import type { Logger } from 'pino';
import { ClientRequestFailedError, ClientRequestTimeoutError } from '../../errors/protocol-errors.js';
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, RequestId } from '../../protocol/types.js';
import type { ClientAnswer } from './client-answer.js';

/** Where one server→client request goes (stdout, a POST's SSE stream, the session's GET stream). */
export type ClientRequestOutlet = (message: JsonRpcRequest | JsonRpcNotification) => void;

interface Pending {
  readonly method: string;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
  readonly timer: NodeJS.Timeout;
}

/** Default time a client has to answer a server→client request (elicitation waits for a person). */
export const DEFAULT_CLIENT_REQUEST_TIMEOUT_MS = 300_000;

/**
 * The server→client requests of one legacy session (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`): their ids, the answers routed back to them, and their end by timeout or
 * cancellation — either way the client is told with `notifications/cancelled`.
 */
export class ClientRequests {
  private nextId = 0;
  private readonly pending = new Map<RequestId, Pending>();

  constructor(
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  /** Requests currently waiting for the client. */
  get size(): number {
    return this.pending.size;
  }

  /** Sends one request through `outlet` and resolves with the client's result. */
  request(method: string, params: JsonObject | undefined, outlet: ClientRequestOutlet, signal?: AbortSignal): Promise<JsonObject> {
    const id = `decorum-${++this.nextId}`;
    return new Promise<JsonObject>((resolve, reject) => {
      if (signal?.aborted) return reject(new ClientRequestFailedError(`${method} was not sent: the request it belongs to was cancelled`));
      const end = (error: Error, reason: string) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        outlet({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
        reject(error);
      };
      const onAbort = () =>
        end(new ClientRequestFailedError(`${method} was cancelled: the request it belongs to was cancelled`), 'the request that asked was cancelled');
      const timer = setTimeout(
        () => end(new ClientRequestTimeoutError(`The client did not answer ${method} within ${this.timeoutMs} ms`), `no answer within ${this.timeoutMs} ms`),
        this.timeoutMs,
      );
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        method,
        timer,
        resolve: (result) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message.params = params;
      outlet(message);
    });
  }

  /**
   * Routes the client's answer (read by `readClientAnswer`) to the request it answers: a malformed
   * one fails that request with the reason, so the handler waiting on it ends. Returns false for
   * an id this session is not waiting for.
   */
  settle(id: unknown, answer: ClientAnswer): boolean {
    const pending = this.pending.get(id as RequestId);
    if (!pending) return false;
    this.pending.delete(id as RequestId);
    clearTimeout(pending.timer);
    if (!answer.ok) {
      pending.reject(new ClientRequestFailedError(`The client answered ${pending.method} with a malformed response: ${answer.problem}`));
    } else if ('error' in answer) {
      pending.reject(new ClientRequestFailedError(`The client answered ${pending.method} with error ${answer.error.code}: ${answer.error.message}`));
    } else {
      pending.resolve(answer.result);
    }
    return true;
  }

  /** Fails every waiting request (the session ended). */
  close(): void {
    for (const [id, pending] of [...this.pending]) {
      this.pending.delete(id);
      clearTimeout(pending.timer);
      pending.reject(new ClientRequestFailedError(`${pending.method} was abandoned: the session ended`));
    }
    this.log.debug('legacy session closed');
  }
}
