import { defineMethod, type ServingState } from './method.js';
import type { ListPages } from '../registry/list-pages.js';
import type { ListKind } from '../pipeline/per-caller-lists.js';

/**
 * A paginated list method answered from pages serialized when the registry was built, or with
 * `lists: 'per-caller'` from pages of what this caller may use.
 */
function listMethod(method: string, kind: ListKind, served: (s: ServingState) => boolean, pages: (s: ServingState) => ListPages) {
  return defineMethod({
    method,
    served,
    run: (call) =>
      call.state.pipeline?.lists
        ? call.state.pipeline.listPage(kind, call, call.state.registry, call.params.cursor)
        : pages(call.state).page(call.params.cursor),
  });
}

export const toolsListMethod = listMethod(
  'tools/list',
  'tools',
  (s) => s.registry.hasTools,
  (s) => s.registry.toolPages,
);
export const promptsListMethod = listMethod(
  'prompts/list',
  'prompts',
  (s) => s.registry.hasPrompts,
  (s) => s.registry.promptPages,
);
export const resourcesListMethod = listMethod(
  'resources/list',
  'resources',
  (s) => s.registry.hasResources,
  (s) => s.registry.resourcePages,
);
export const resourceTemplatesListMethod = listMethod(
  'resources/templates/list',
  'resourceTemplates',
  (s) => s.registry.hasResources,
  (s) => s.registry.templatePages,
);
