import type { InputRequest, JsonObject } from '@decorum/core';
import { InvalidResultError, TaskCancelledError, peerError } from '../errors.js';
import type { CallToolResult } from '../results.js';
import { pollDelay, untilAborted } from './poll-delay.js';
import { StatusReporter } from './status-reporter.js';
import { abortError, cancelTask, type TaskChannel } from './task-channel.js';
import { DEFAULT_POLL_INTERVAL_MS } from './task-options.js';
import { isTerminal, readTask, type TaskDetail } from './task.js';

/**
 * Follows a 2026-07-28 task (`io.modelcontextprotocol/tasks`) from its CreateTaskResult to its
 * end: `tasks/get` at the poll interval; the asks of `input_required` answered through the
 * client's handlers (within the ask limits) and sent with `tasks/update`, each key once; an abort
 * of the call sends `tasks/cancel`. `completed` gives the tool's result, `failed` throws the
 * task's JSON-RPC error as the client throws any, `cancelled` throws {@link TaskCancelledError}.
 */
export async function followModernTask(created: JsonObject, channel: TaskChannel): Promise<CallToolResult> {
  const { signal, onStatus, pollIntervalMs } = channel.options;
  let task = readTask(created, 'tools/call');
  const status = new StatusReporter(onStatus);
  status.report(task);
  const answered = new Set<string>();
  let asked = 0;
  let unanswerable = false;
  try {
    while (!isTerminal(task)) {
      const asks = task.status === 'input_required' ? unanswered(task, answered) : [];
      if (asks.length > 0) {
        const answers = await untilAborted(channel.asks.answerRound('tools/call', channel.tool, Object.fromEntries(asks), asked), signal).catch(
          (error: unknown) => {
            unanswerable = true;
            throw error;
          },
        );
        asked += asks.length;
        for (const [key] of asks) answered.add(key);
        await channel.request('tasks/update', { taskId: task.taskId, inputResponses: answers }, signal);
      } else {
        await pollDelay(pollIntervalMs ?? task.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS, signal);
      }
      task = readTask(await channel.request('tasks/get', { taskId: task.taskId }, signal), 'tasks/get');
      status.report(task);
    }
  } catch (error) {
    // The caller gave up, or the client cannot answer what the task waits for: the task would wait for nothing.
    if (!signal?.aborted && !unanswerable) throw error;
    await cancelTask(channel, task.taskId);
    throw signal?.aborted ? abortError(signal) : error;
  }
  return outcome(task);
}

/** The asks of an `input_required` task the client has not answered yet (an update is eventually consistent). */
function unanswered(task: TaskDetail, answered: ReadonlySet<string>): [string, InputRequest][] {
  return Object.entries((task.inputRequests ?? {}) as Record<string, InputRequest>).filter(([key]) => !answered.has(key));
}

/** What an ended task gives the caller. */
function outcome(task: TaskDetail): CallToolResult {
  if (task.status === 'completed') {
    if (!task.result) throw new InvalidResultError(`tasks/get answered task ${task.taskId} completed without a result`);
    return { ...task.result, resultType: 'complete' } as unknown as CallToolResult;
  }
  if (task.status === 'failed') throw peerError(task.error ?? { code: -32603, message: task.statusMessage ?? `Task ${task.taskId} failed` });
  throw new TaskCancelledError(task.taskId, task.statusMessage);
}
