import { defineMethod, type ServingState } from '../engine/method.js';
import type { ListPages } from '../registry/list-pages.js';

/** A paginated list method answered from pages serialized when the registry was built. */
function listMethod(method: string, served: (s: ServingState) => boolean, pages: (s: ServingState) => ListPages) {
  return defineMethod({
    method,
    served,
    run: ({ params, state }) => pages(state).page(params.cursor),
  });
}

export const toolsListMethod = listMethod('tools/list', (s) => s.registry.hasTools, (s) => s.registry.toolPages);
export const promptsListMethod = listMethod('prompts/list', (s) => s.registry.hasPrompts, (s) => s.registry.promptPages);
export const resourcesListMethod = listMethod('resources/list', (s) => s.registry.hasResources, (s) => s.registry.resourcePages);
export const resourceTemplatesListMethod = listMethod('resources/templates/list', (s) => s.registry.hasResources, (s) => s.registry.templatePages);
