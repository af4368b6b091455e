import type { JsonObject } from '@decorum/core';
import { childController } from '../abort.js';
import { InvalidResultError, TaskCancelledError } from '../errors.js';
import type { CallToolResult } from '../results.js';
import { pollDelay } from './poll-delay.js';
import { StatusReporter } from './status-reporter.js';
import { abortError, cancelTask, type TaskChannel } from './task-channel.js';
import { DEFAULT_POLL_INTERVAL_MS } from './task-options.js';
import { isTerminal, readTask, type Task } from './task.js';

/**
 * Follows a 2025-11-25 task from the `{ task }` its `tools/call` answered: `tasks/result` waits
 * for the end and returns what the call would have (the result, or its JSON-RPC error thrown);
 * the `elicitation/create`, `sampling/createMessage` and `roots/list` the server sends meanwhile
 * are answered by the client's handlers, as any server request. With `onStatus`, `tasks/get` is
 * polled beside it. An abort of the call sends `tasks/cancel`.
 */
export async function followLegacyTask(created: JsonObject, channel: TaskChannel): Promise<CallToolResult> {
  const { signal, onStatus } = channel.options;
  if (typeof created.task !== 'object' || created.task === null)
    throw new InvalidResultError('tools/call answered a task request with neither a result nor a task');
  const first = readTask(created.task, 'tools/call');
  const status = new StatusReporter(onStatus);
  status.report(first);
  const { controller, release } = childController(signal);
  const watching = onStatus ? watchStatus(first, channel, status, controller.signal) : undefined;
  try {
    const result = await channel.request('tasks/result', { taskId: first.taskId }, controller.signal, 0);
    await settleWatch(controller, watching, channel, status);
    return { ...result, resultType: 'complete' } as unknown as CallToolResult;
  } catch (error) {
    if (signal?.aborted) {
      await cancelTask(channel, first.taskId);
      throw abortError(signal);
    }
    await settleWatch(controller, watching, channel, status);
    if (status.current?.status === 'cancelled') throw new TaskCancelledError(first.taskId, status.current.statusMessage);
    throw error;
  } finally {
    controller.abort();
    release();
  }
}

/** Ends the status watch once `tasks/result` answered, and tells `onStatus` how the task ended (one last `tasks/get`). */
async function settleWatch(controller: AbortController, watching: Promise<void> | undefined, channel: TaskChannel, status: StatusReporter): Promise<void> {
  if (!watching) return;
  controller.abort();
  await watching;
  const last = status.current!;
  if (isTerminal(last)) return;
  const task = await channel.request('tasks/get', { taskId: last.taskId }, undefined).catch(() => undefined);
  if (task) status.report(readTask(task, 'tasks/get'));
}

/** Polls `tasks/get` for `onStatus` until the task ends or the call settles. */
async function watchStatus(first: Task, channel: TaskChannel, status: StatusReporter, signal: AbortSignal): Promise<void> {
  let task = first;
  try {
    while (!isTerminal(task)) {
      await pollDelay(channel.options.pollIntervalMs ?? task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, signal);
      task = readTask(await channel.request('tasks/get', { taskId: task.taskId }, signal), 'tasks/get');
      status.report(task);
    }
  } catch {
    // The call settled (or the status could not be read): tasks/result says how the task ended.
  }
}
