import { unknownItem } from '../errors/unknown-item.js';
import type { RequestMeta } from '../era/request-meta.js';
import type { MethodCall } from '../methods/method.js';
import { toolsCallMethod } from '../methods/tools-call.js';
import { runChain, type CallResult, type Middleware } from '../pipeline/middleware.js';
import type { ClientCapabilities, JsonObject } from '../protocol/types.js';
import type { ToolTarget } from '../registry/targets.js';
import { DerivedCall } from './derived-call.js';
import type { DerivedCallOptions } from './extension.js';
import type { StoredToolCall } from './stored-tool-call.js';

/**
 * A `tools/call` re-made from a stored call (`ExtensionRequest.runTool`): derived from an
 * extension's request (its state, channel, caller), with the stored tool, arguments, client
 * capabilities and revision in place of the request's own.
 */
class StoredToolRun extends DerivedCall<ToolTarget> {
  private readonly storedMeta: RequestMeta;
  private readonly toolParams: JsonObject;

  constructor(
    origin: MethodCall<unknown>,
    options: DerivedCallOptions,
    private readonly stored: StoredToolCall,
    private readonly tool: ToolTarget,
  ) {
    super(origin as unknown as MethodCall<ToolTarget>, options);
    this.storedMeta = { ...origin.requestMeta, protocolVersion: stored.protocolVersion, clientCapabilities: stored.clientCapabilities };
    this.toolParams = { name: stored.name, arguments: stored.arguments };
  }

  override get method(): string {
    return 'tools/call';
  }

  override get params(): JsonObject {
    return this.toolParams;
  }

  override get resolved(): ToolTarget {
    return this.tool;
  }

  override get target(): ToolTarget {
    return this.tool;
  }

  override get requestMeta(): RequestMeta {
    return this.storedMeta;
  }

  override get protocolVersion(): string {
    return this.stored.protocolVersion;
  }

  override get clientCapabilities(): ClientCapabilities {
    return this.stored.clientCapabilities;
  }
}

/** Runs `stored` through its tool's `@Use` chain and the method, on a call derived from `origin`. */
export async function runStoredToolCall(origin: MethodCall<unknown>, stored: StoredToolCall, options: DerivedCallOptions): Promise<CallResult> {
  const entry = origin.state.registry.tools.get(stored.name);
  if (!entry) throw unknownItem('tool', stored.name);
  const call = new StoredToolRun(origin, options, stored, { kind: 'tool', name: stored.name, entry });
  return runChain((entry.steps?.use ?? []) as readonly Middleware[], call, toolsCallMethod);
}
