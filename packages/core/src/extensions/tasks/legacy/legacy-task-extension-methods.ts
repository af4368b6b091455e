/**
 * The Tasks extension's methods with 2025-11-25's added: `tasks/get` and `tasks/cancel` exist in
 * both eras (a legacy session gets the legacy answer), `tasks/result` and `tasks/list` in the
 * legacy era only (2026-07-28 has neither: -32601). A session on a revision before 2025-11-25
 * has no tasks at all: -32601 there too.
 */
import { revisionHas } from '../../../era/revision-features.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../../../era/versions.js';
import { MethodNotFoundError } from '../../../errors/protocol-errors.js';
import type { Result } from '../../../protocol/types.js';
import type { Extension, ExtensionMethod, ExtensionRequest } from '../../extension.js';
import { TaskIdParams } from '../task-params.js';
import type { TaskStore } from '../task-store.js';
import type { LegacyTaskMethods } from './legacy-task-methods.js';
import { legacyTasksOf } from './legacy-tasks.js';

type Methods = NonNullable<Extension['methods']>;

/** `modern` plus the legacy methods over the store `storeOf` gives (once installed). */
export function withLegacyTaskMethods(modern: Methods, storeOf: () => TaskStore): Methods {
  const legacy = (request: ExtensionRequest<unknown>): LegacyTaskMethods => {
    if (!revisionHas(request.protocolVersion, 'tasks'))
      throw new MethodNotFoundError(`Method not found: ${request.method} (MCP ${request.protocolVersion} has no tasks; they arrived in 2025-11-25)`);
    return legacyTasksOf(storeOf()).methods;
  };
  const bothEras = (name: 'tasks/get' | 'tasks/cancel', answer: (methods: LegacyTaskMethods, request: ExtensionRequest<unknown>) => Promise<Result>) => {
    const method = modern[name] as ExtensionMethod<unknown>;
    return {
      ...method,
      eras: 'both',
      run: (request: ExtensionRequest<unknown>) =>
        LEGACY_PROTOCOL_VERSIONS.includes(request.protocolVersion) ? answer(legacy(request), request) : method.run(request),
    } satisfies ExtensionMethod<unknown>;
  };
  return {
    ...modern,
    'tasks/get': bothEras('tasks/get', (methods, request) => methods.get(request)),
    'tasks/cancel': bothEras('tasks/cancel', (methods, request) => methods.cancel(request)),
    'tasks/result': { params: TaskIdParams, eras: 'legacy', run: (request) => legacy(request).result(request) },
    'tasks/list': { eras: 'legacy', run: (request) => legacy(request).list(request) },
  };
}
