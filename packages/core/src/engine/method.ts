import type { Logger } from 'pino';
import type { CacheHints, Implementation, JsonObject, Result } from '../protocol/types.js';
import type { Registry } from '../registry/registry.js';
import type { RawJson } from '../wire/raw-json.js';
import type { RequestChannel, RequestScope } from './request-scope.js';
import type { LiveRegistry } from '../live/live-registry.js';
import type { MrtrConfig } from '../mrtr/input-round.js';
import type { Pipeline } from '../pipeline/pipeline.js';
import type { CallDescription } from '../pipeline/call.js';

/** What method handlers may read about the server they serve. */
export interface ServingState {
  /** The registry snapshot serving now (a getter: live changes swap it between requests). */
  readonly registry: Registry;
  /** The mutable side: live changes, completers and the notification bus. */
  readonly live: LiveRegistry;
  readonly info: Implementation;
  /** `{ serverInfo: info }`, frozen: the `_meta` of every result without its own, and of list pages (see infoOnlyMeta). */
  readonly resultMeta: JsonObject;
  readonly instructions: string | undefined;
  readonly discoverCache: CacheHints;
  /** Default hints of `resources/read` results. */
  readonly readCache: CacheHints;
  readonly logger: Logger;
  /** Sealing keys and limits of MRTR `requestState` (a process-wide default when absent). */
  readonly mrtr?: MrtrConfig;
  /** Middleware, guards, rate limit and telemetry around each request (absent: the handler alone). */
  readonly pipeline?: Pipeline;
}

/** One call of a method, after the engine's checks; the pipeline describes it by the same object. */
export interface MethodCall<Target> extends CallDescription {
  readonly scope: RequestScope;
  readonly params: JsonObject;
  readonly target: Target;
  readonly state: ServingState;
  /** The transport's channel (`subscriptions/listen` reads its optional flow control). */
  readonly channel: RequestChannel;
}

/**
 * One MCP method. `served` gates it on what is registered (an unserved method is -32601, as the
 * spec asks for capability-gated methods); `resolve` finds its target (tool, prompt, resource)
 * before the transport's own checks that need it; `run` produces the result.
 */
export interface MethodHandler<Target = undefined> {
  readonly method: string;
  served(state: ServingState): boolean;
  resolve?(params: JsonObject, state: ServingState): Target;
  run(call: MethodCall<Target>): Promise<Result | RawJson> | Result | RawJson;
}

/** Identity helper that keeps a handler's target type. */
export function defineMethod<Target = undefined>(handler: MethodHandler<Target>): MethodHandler<Target> {
  return handler;
}
