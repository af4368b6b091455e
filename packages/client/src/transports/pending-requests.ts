import type { JsonRpcNotification, JsonRpcResponse, RequestId } from '@decorum/core';
import type { Exchange } from './transport.js';

interface Pending {
  readonly exchange: Exchange;
  resolve(response: JsonRpcResponse): void;
  reject(error: Error): void;
}

/** How many ids of cancelled requests are remembered, so a late answer to one is not a violation (G-05). */
const CANCELLED_MEMORY = 256;

/**
 * The requests in flight on one shared channel (stdio), keyed by id: answers are matched to
 * them, and notifications routed by `progressToken` or listen `subscriptionId`.
 */
export class PendingRequests {
  private readonly byId = new Map<RequestId, Pending>();
  private readonly byToken = new Map<string | number, Pending>();
  private readonly cancelled = new Set<RequestId>();

  get size(): number {
    return this.byId.size;
  }

  add(id: RequestId, exchange: Exchange): Promise<JsonRpcResponse> {
    return new Promise((resolve, reject) => {
      const pending: Pending = { exchange, resolve, reject };
      this.byId.set(id, pending);
      if (exchange.progressToken !== undefined) this.byToken.set(exchange.progressToken, pending);
    });
  }

  /** Settles the request `response` answers; false when no such request is in flight. */
  settle(response: JsonRpcResponse): boolean {
    // An error the server could not tie to an id (B-12) answers the one request in flight, if only one is.
    const unnamed = response.id === undefined || response.id === null;
    const id = unnamed && 'error' in response && this.byId.size === 1 ? this.byId.keys().next().value! : response.id;
    const pending = id === undefined || id === null ? undefined : this.remove(id);
    if (pending) {
      pending.resolve(response);
      return true;
    }
    return !unnamed && this.cancelled.has(response.id!);
  }

  /** Forgets a request (cancelled by the client): a late answer to it is ignored. */
  cancel(id: RequestId, error: Error): void {
    const pending = this.remove(id);
    if (!pending) return;
    this.cancelled.add(id);
    if (this.cancelled.size > CANCELLED_MEMORY) this.cancelled.delete(this.cancelled.values().next().value!);
    pending.reject(error);
  }

  /** The exchange a request-scoped notification belongs to, if any. */
  route(notification: JsonRpcNotification): Exchange | undefined {
    const params = notification.params;
    const subscription = (params?._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/subscriptionId'];
    if (subscription !== undefined) return this.byId.get(subscription as RequestId)?.exchange;
    if (notification.method === 'notifications/progress' && params && params.progressToken !== undefined) {
      return this.byToken.get(params.progressToken as string | number)?.exchange;
    }
    return undefined;
  }

  rejectAll(error: Error): void {
    const all = [...this.byId.values()];
    this.byId.clear();
    this.byToken.clear();
    for (const pending of all) pending.reject(error);
  }

  private remove(id: RequestId): Pending | undefined {
    const pending = this.byId.get(id);
    if (!pending) return undefined;
    this.byId.delete(id);
    if (pending.exchange.progressToken !== undefined) this.byToken.delete(pending.exchange.progressToken);
    return pending;
  }
}
