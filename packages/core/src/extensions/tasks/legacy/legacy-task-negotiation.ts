/**
 * What a 2025-11-25 session learns about tasks and asks of them: `capabilities.tasks` in the
 * `initialize` result, `execution.taskSupport` on `tools/list` items, and the `task` param of
 * `tools/call` (L§Capabilities, L§Tool-Level Negotiation). Revisions before 2025-11-25 have none of it.
 */
import { revisionHas } from '../../../era/revision-features.js';
import { InvalidParamsError, MethodNotFoundError } from '../../../errors/protocol-errors.js';
import { isJsonObject } from '../../../protocol/json-object.js';
import type { JsonObject } from '../../../protocol/types.js';

/** How a tool takes tasks (absent: never a task, "forbidden"). */
export type TaskSupport = 'optional' | 'required';

/** What the client asked of a task-augmented call (`params.task`). */
export interface LegacyTaskParam {
  /** The lifetime the client asked for (ms); the server may cap it. */
  readonly ttl?: number;
}

/** The legacy `initialize` capabilities Tasks adds for `version` (`undefined` before 2025-11-25). */
export function legacyTaskCapabilities(version: string): JsonObject | undefined {
  if (!revisionHas(version, 'tasks')) return undefined;
  return { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } };
}

/** The fields a task tool's `tools/list` item gets for `version` (`undefined`: none). */
export function legacyTaskToolFields(support: TaskSupport | undefined, version: string): JsonObject | undefined {
  if (support === undefined || !revisionHas(version, 'tasks')) return undefined;
  return { execution: { taskSupport: support } };
}

/**
 * The `task` param of a `tools/call` on a legacy session, checked against the tool's support:
 * what to create, or `undefined` to run the call inline. A `required` tool called without one,
 * or a tool without task support called with one, is -32601 (L§Tool-Level Negotiation); a
 * session before 2025-11-25 knows no tasks, so its calls always run inline.
 */
export function legacyTaskParam(params: JsonObject, support: TaskSupport | undefined, version: string, tool: string): LegacyTaskParam | undefined {
  if (!revisionHas(version, 'tasks')) return undefined;
  const task = params.task;
  if (task === undefined) {
    if (support === 'required') throw new MethodNotFoundError(`Method not found: tool "${tool}" runs only as a task; call it with params.task ({} or { ttl })`);
    return undefined;
  }
  if (support === undefined) throw new MethodNotFoundError(`Method not found: tool "${tool}" does not run as a task; call it without params.task`);
  if (!isJsonObject(task)) throw new InvalidParamsError(`Invalid params: params.task must be an object ({} or { ttl }), got ${JSON.stringify(task)}`);
  const { ttl } = task;
  if (ttl === undefined || ttl === null) return {};
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl <= 0)
    throw new InvalidParamsError(`Invalid params: params.task.ttl must be a positive integer of milliseconds, got ${JSON.stringify(ttl)}`);
  return { ttl };
}
