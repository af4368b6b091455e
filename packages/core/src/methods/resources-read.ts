import { InvalidParamsError } from '../errors/protocol-errors.js';
import { defineMethod } from './method.js';
import type { ResourceContext } from '../context/request-context.js';
import type { ResourceMatch } from '../registry/registry.js';
import type { CompiledSchema } from '../schema/compiled-input.js';
import { resourceTarget, type ResourceTarget } from '../registry/targets.js';
import type { CacheHints } from '../protocol/types.js';
import { formatIssues } from '../schema/issues.js';
import { resourceContentsFromValue } from '../results/resource-result.js';
import { handlerFailure } from './handler-failure.js';
import { invokeHandler } from './invoke-handler.js';

/**
 * A template's variables checked against its `input:` (or DTO parameter): the value validation
 * produces (a DTO instance, defaults filled in), or -32602 with `data.issues` naming each bad one.
 */
async function checkedVariables(input: CompiledSchema, name: string, variables: ResourceMatch['variables'], uri: string): Promise<ResourceMatch['variables']> {
  const outcome = await input.validate(variables);
  if (outcome.ok) return outcome.value as ResourceMatch['variables'];
  throw new InvalidParamsError(`Invalid variables for resource template "${name}" (${uri}):\n${formatIssues(outcome.issues, null)}`, {
    uri,
    issues: outcome.issues,
  });
}

/** The hints of a result no cache may keep. */
const UNCACHED: CacheHints = Object.freeze({ ttlMs: 0, cacheScope: 'private' });

/** `resources/read`: fixed URIs first, then templates; unknown URIs are -32602 with `data.uri`. */
export const resourcesReadMethod = defineMethod<ResourceTarget>({
  method: 'resources/read',
  served: (s) => s.registry.hasResources,
  resolve: resourceTarget,
  target: (resource) => resource,
  async run(call) {
    const { resolved: target, state } = call;
    const { entry, uri } = target;
    const input = entry.kind === 'template' ? entry.input : undefined;
    const variables = input ? await checkedVariables(input, entry.name, target.variables, uri) : target.variables;
    let contents;
    let retry: boolean;
    try {
      const ran = await invokeHandler(call, uri, {}, (asks) => entry.invoke(variables, Object.assign(call.context(asks), { uri }) satisfies ResourceContext));
      if (ran.kind === 'input_required') return ran.result;
      retry = ran.retry;
      contents = resourceContentsFromValue(ran.value, uri, entry.mimeType);
    } catch (error) {
      throw handlerFailure(error, entry.source, call.log);
    }
    // Results of MRTR retries must not be cached (C-06): the hints say so.
    call.cacheHints = retry
      ? UNCACHED
      : { ttlMs: entry.cache.ttlMs ?? state.readCache.ttlMs, cacheScope: entry.cache.cacheScope ?? state.readCache.cacheScope };
    return { contents };
  },
});
