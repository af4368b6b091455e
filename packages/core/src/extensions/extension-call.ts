import type { Logger } from 'pino';
import type { AuthInfo, RequestContext } from '../context/request-context.js';
import { PipelineCall } from '../pipeline/call.js';
import type { JsonObject, RequestId } from '../protocol/types.js';
import type { CallTarget } from '../registry/targets.js';
import type { MethodCall } from '../methods/method.js';
import type { DerivedCallOptions, ExtensionRequest, StoredToolCall } from './extension.js';
import type { CallResult } from '../pipeline/middleware.js';
import { runStoredToolCall } from './run-stored-tool-call.js';
import type { AskSeam } from '../asks/handler-asks.js';

const NONE: Readonly<Record<string, JsonObject>> = Object.freeze({});

/** One request to an extension's method as its `run` sees it: the engine's call, with the validated params. */
export class ExtensionCall<Params> extends PipelineCall implements ExtensionRequest<Params> {
  constructor(
    private readonly call: MethodCall<unknown>,
    readonly input: Params,
  ) {
    super(false);
  }

  get protocolVersion(): string {
    return this.call.protocolVersion;
  }

  get method(): string {
    return this.call.method;
  }

  get id(): RequestId {
    return this.call.id;
  }

  get params(): JsonObject {
    return this.call.params;
  }

  get target(): CallTarget | undefined {
    return undefined;
  }

  get auth(): AuthInfo | undefined {
    return this.call.auth;
  }

  get peer(): string | undefined {
    return this.call.peer;
  }

  get sessionId(): string | undefined {
    return this.call.sessionId;
  }

  get ctx(): RequestContext {
    return this.call.ctx;
  }

  get clientExtensions(): Readonly<Record<string, JsonObject>> {
    return this.call.requestMeta.clientCapabilities.extensions ?? NONE;
  }

  get log(): Logger {
    return this.call.log;
  }

  get signal(): AbortSignal {
    return this.call.signal;
  }

  get asks(): AskSeam | undefined {
    return this.call.asks;
  }

  notify(method: string, params: JsonObject): void {
    this.call.notify(method, params);
  }

  runTool(stored: StoredToolCall, derived: DerivedCallOptions): Promise<CallResult> {
    return runStoredToolCall(this.call, stored, derived);
  }
}
