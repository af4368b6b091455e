import type { JsonObject } from '@decorum/core';
import type { AskGate } from '../ask-gate.js';
import { RequestCancelledError } from '../errors.js';
import type { TaskCallOptions } from './task-options.js';

/** What following a task needs from the client: its requests, its ask gate, and the call's options. */
export interface TaskChannel {
  /** One request with the era's `_meta`, the call's timeout (`timeoutMs` overrides it) and typed errors. */
  request(method: string, params: JsonObject, signal: AbortSignal | undefined, timeoutMs?: number): Promise<JsonObject>;
  readonly asks: AskGate;
  /** The tool the task runs. */
  readonly tool: string;
  readonly options: TaskCallOptions & { readonly signal?: AbortSignal };
}

/** The error an aborted call rejects with: the abort's reason when it is an error, as for any request. */
export function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new RequestCancelledError('tools/call', signal.reason);
}

/** How long an aborted call waits for the server to acknowledge `tasks/cancel` before it rejects anyway. */
const CANCEL_ACK_MS = 5000;

/** Asks the server to cancel the task, once the caller gave up on it (best effort: the call fails either way). */
export async function cancelTask(channel: TaskChannel, taskId: string): Promise<void> {
  await channel.request('tasks/cancel', { taskId }, undefined, CANCEL_ACK_MS).catch(() => {});
}
