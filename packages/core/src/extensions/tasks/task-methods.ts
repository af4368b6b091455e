/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (2026-07-28). Each finds the task and checks that
 * the caller owns it — another principal's task answers exactly like an unknown one (-32602). A
 * client that did not declare the extension gets -32021 before its params are read (the API's
 * `requiresClientExtension`); `Mcp-Name` on HTTP carries the `taskId`.
 */
import type { InputRequest } from '../../asks/ask-types.js';
import { checkAnswer } from '../../asks/answer-check.js';
import { InvalidParamsError } from '../../errors/protocol-errors.js';
import { TaskNotFoundError } from '../../errors/task-errors.js';
import type { JsonObject, Result } from '../../protocol/types.js';
import { formatIssues } from '../../schema/issues.js';
import type { Extension, ExtensionMethod, ExtensionRequest } from '../extension.js';
import type { TaskEra } from './task-era.js';
import { TASK_ERAS } from './task-eras.js';
import { ownerOf } from './task-owner.js';
import { TaskIdParams, TaskUpdateParams, type TaskIdInput, type TaskUpdateInput } from './task-params.js';
import type { TaskRunner } from './task-runner.js';
import { TERMINAL_STATUSES, type TaskRecord } from './task-store.js';

/** The task `request` names, when its caller may see it (-32602 otherwise, the same for unknown, expired and foreign). */
async function ownedTask(runner: TaskRunner, request: ExtensionRequest<TaskIdInput>): Promise<TaskRecord> {
  const record = await runner.store.get(request.input.taskId);
  if (record === undefined) throw new TaskNotFoundError();
  if (record.owner !== ownerOf(request.auth)) {
    request.log.info({ taskId: record.taskId }, 'tasks: a caller asked for a task it does not own; answered as unknown');
    throw new TaskNotFoundError();
  }
  return record;
}

function eraOf(request: ExtensionRequest<unknown>): TaskEra {
  return TASK_ERAS.get(request.protocolVersion)!;
}

/** Keeps the answers that fit their outstanding asks (a malformed one is -32602); others are logged and ignored. */
function checkedResponses(record: TaskRecord, input: TaskUpdateInput, request: ExtensionRequest<TaskUpdateInput>): Record<string, JsonObject> {
  const kept: Record<string, JsonObject> = {};
  const ignored: string[] = [];
  for (const [key, answer] of Object.entries(input.inputResponses)) {
    const ask = record.inputRequests[key] as InputRequest | undefined;
    if (ask === undefined) {
      ignored.push(key);
      continue;
    }
    const checked = checkAnswer(key, ask, answer);
    if (!checked.ok) throw new InvalidParamsError(`Invalid params: inputResponses["${key}"] does not fit its form:\n${formatIssues(checked.issues, null)}`);
    kept[key] = answer as JsonObject;
  }
  if (ignored.length > 0)
    request.log.info({ taskId: record.taskId, keys: ignored }, 'tasks/update: keys not outstanding (unknown or already answered); ignored');
  return kept;
}

/** What every modern `tasks/*` method is: for clients that declared the extension, named by `taskId` on HTTP. */
const MODERN_TASK_METHOD = { eras: 'modern', requiresClientExtension: true, nameParam: 'taskId' } as const;

/** The modern `tasks/*` methods of a runner. */
export function taskMethods(runnerOf: () => TaskRunner): NonNullable<Extension['methods']> {
  const get: ExtensionMethod<TaskIdInput> = {
    ...MODERN_TASK_METHOD,
    params: TaskIdParams,
    async run(request): Promise<Result> {
      return eraOf(request).detailed(await ownedTask(runnerOf(), request));
    },
  };
  const update: ExtensionMethod<TaskUpdateInput> = {
    ...MODERN_TASK_METHOD,
    params: TaskUpdateParams,
    async run(request): Promise<Result> {
      const runner = runnerOf();
      const record = await ownedTask(runner, request);
      const responses = checkedResponses(record, request.input, request);
      // A parked resumable task whose instance stopped: the lease is claimed before the answer is
      // stored (so no sweep fails it in between), and the handler is replayed here.
      const replaying = await runner.claim(record);
      if (Object.keys(responses).length > 0) {
        const { record: after } = await runner.store.answer(record.taskId, responses);
        if (after) runner.changed(after);
      }
      if (replaying) await runner.replay(record.taskId, (derived) => request.runTool(record.call!, derived));
      return {};
    },
  };
  const cancel: ExtensionMethod<TaskIdInput> = {
    ...MODERN_TASK_METHOD,
    params: TaskIdParams,
    async run(request): Promise<Result> {
      const runner = runnerOf();
      const record = await ownedTask(runner, request);
      if (TERMINAL_STATUSES.has(record.status)) return {};
      // Terminal first, so it wins: the task reads `cancelled` from now on, and the change aborts
      // its handler's ctx.signal on whichever instance runs it (a late result is dropped).
      const after = await runner.store.transition(record.taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client', inputRequests: {} });
      if (after) runner.changed(after);
      return {};
    },
  };
  return { 'tasks/get': get, 'tasks/update': update, 'tasks/cancel': cancel };
}
