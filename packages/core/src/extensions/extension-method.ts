import { DecorumStartupError } from '../errors/startup-error.js';
import { InvalidParamsError, MissingRequiredClientCapabilityError } from '../errors/protocol-errors.js';
import { isThenable } from '../async/thenable.js';
import type { RequestMeta } from '../era/request-meta.js';
import type { MethodCall, MethodHandler } from '../methods/method.js';
import type { JsonObject, Result } from '../protocol/types.js';
import { compileSchema, type CompiledSchema } from '../schema/compiled-input.js';
import { formatIssues, type ValidationOutcome } from '../schema/issues.js';
import { ExtensionCall } from './extension-call.js';
import type { Extension, ExtensionMethod } from './extension.js';

/** The params a method's schema checks: what was sent, without `_meta` (every modern request carries one). */
function paramsOf(call: MethodCall<unknown>): JsonObject {
  const { _meta: _ignored, ...params } = call.params;
  return params;
}

/**
 * An extension's request method as the engine serves it: in its eras only (elsewhere -32601),
 * gated on the client's declaration when it asks (-32021, before its params are read), its
 * params checked against its schema (-32602 naming each issue), then its `run`.
 */
export function extensionMethod(ext: Extension, name: string, method: ExtensionMethod): MethodHandler {
  let schema: CompiledSchema | undefined;
  try {
    schema = method.params === undefined ? undefined : compileSchema(method.params);
  } catch (error) {
    throw error instanceof DecorumStartupError ? error.within(`params of extension method "${name}" (${ext.id})`) : error;
  }
  const required = { extensions: { [ext.id]: {} } };
  const run = (call: MethodCall<unknown>, outcome: ValidationOutcome): Result | Promise<Result> => {
    if (!outcome.ok) throw new InvalidParamsError(`Invalid params for ${name}:\n${formatIssues(outcome.issues, null)}`, { issues: outcome.issues });
    return method.run(new ExtensionCall(call, outcome.value as JsonObject));
  };
  return {
    method: name,
    eras: method.eras ?? ext.eras,
    nameParam: method.nameParam,
    gate: method.requiresClientExtension
      ? (meta: RequestMeta, modern: boolean) => {
          if (modern && meta.clientCapabilities.extensions?.[ext.id] === undefined)
            throw new MissingRequiredClientCapabilityError(`${name} needs the client extension "${ext.id}", which this request did not declare`, required);
        }
      : undefined,
    served: () => true,
    run(call) {
      if (!schema) return run(call, { ok: true, value: paramsOf(call) });
      const checking = schema.validate(paramsOf(call));
      return isThenable(checking) ? Promise.resolve(checking).then((outcome) => run(call, outcome)) : run(call, checking);
    },
  };
}
