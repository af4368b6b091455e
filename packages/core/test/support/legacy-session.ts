import type { JsonRpcNotification, JsonRpcRequest, ServerOptions, ServerTarget } from '@decorum/core';
import { Cancellation, encodeMessage } from '@decorum/core/transport';
import { harness } from './engine-harness.js';

/**
 * A legacy session on the core alone: what it sends (session-level messages and asks), the
 * notifications of its requests, and the wire JSON of its answers.
 */
export function legacySession(targets: ServerTarget[], options: ServerOptions = {}) {
  const { server } = harness(targets, options);
  const sent: Array<JsonRpcRequest | JsonRpcNotification> = [];
  const notified: JsonRpcNotification[] = [];
  let wake: (() => void) | undefined;
  const legacy = server.openLegacySession((m) => {
    sent.push(m);
    wake?.();
  });
  /** Resolves once the session has sent a message to the client (an ask, a notification). */
  const nextSent = async () => {
    const seen = sent.length;
    while (sent.length === seen) await new Promise<void>((resolve) => (wake = resolve));
    return sent[sent.length - 1];
  };
  let id = 0;
  const request = async (method: string, params?: object) => {
    const response = await legacy.answerRequest(
      { jsonrpc: '2.0', id: ++id, method, ...(params ? { params: params as never } : {}) },
      { cancellation: new Cancellation(), notify: (n) => notified.push(n) },
    );
    return JSON.parse(encodeMessage(response!)) as Record<string, any>;
  };
  const init = (protocolVersion = '2025-11-25', capabilities: object = {}) =>
    request('initialize', { protocolVersion, capabilities, clientInfo: { name: 't', version: '1' } });
  return { server, legacy, sent, notified, request, init, nextSent };
}
