import type { JsonRpcNotification, JsonRpcRequest } from '@decorum/core';

/** The `notifications/cancelled` that withdraws `request`, with the abort's reason in words. */
export function cancelledNotification(request: JsonRpcRequest, reason: unknown): JsonRpcNotification {
  const words = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'cancelled by the client';
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: request.id, reason: words } };
}
